// Preloaded into the `astro build` child (build-site.ts, `--import`). The build writes into a staged
// folder its server moves into place; a server killed outright cannot stop it, and a build writing on
// with no one to move its output only races whoever removes that folder as a leftover (decision 064).
// The IPC channel to the server closes when the server dies, whatever killed it.
process.on('disconnect', () => process.exit(1));
// The channel alone must not keep a finished build running.
process.channel?.unref();
