import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { GEM_TEXTS } from '../../../../contract/gems.ts';
import { $gemIds, $gemToggles, toggleGem } from '../../../../src/stores/gems.ts';

const ID = '11111111-1111-4111-8111-111111111111';

function answer(status: number, body: unknown) {
  return Promise.resolve(new Response(JSON.stringify(body), { status }));
}

describe('gems store', () => {
  beforeEach(() => {
    $gemIds.set(new Set());
    $gemToggles.set({});
  });
  afterEach(() => vi.unstubAllGlobals());

  test('a save shows at once and stays when the server agrees', async () => {
    let release: (value: Response) => void = () => {};
    vi.stubGlobal(
      'fetch',
      vi.fn(() => new Promise<Response>((resolve) => (release = resolve))),
    );
    const pending = toggleGem(ID);
    expect($gemIds.get()?.has(ID)).toBe(true);
    expect($gemToggles.get()[ID]).toEqual({ busy: true, error: null });
    // A second press while the first is in flight changes nothing.
    await toggleGem(ID);
    expect($gemIds.get()?.has(ID)).toBe(true);
    release(new Response(JSON.stringify({ thread_id: ID, saved: true, count: 1 }), { status: 200 }));
    await pending;
    expect($gemIds.get()?.has(ID)).toBe(true);
    expect($gemToggles.get()[ID]).toEqual({ busy: false, error: null });
    expect(vi.mocked(fetch)).toHaveBeenCalledTimes(1);
    expect(vi.mocked(fetch).mock.calls[0]?.[1]?.method).toBe('PUT');
  });

  test('a failed save is rolled back with the reason; a failed removal with a retry hint', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(() => answer(409, { detail: GEM_TEXTS.notApproved })),
    );
    await toggleGem(ID);
    expect($gemIds.get()?.has(ID)).toBe(false);
    expect($gemToggles.get()[ID]?.error).toBe(GEM_TEXTS.notApproved);

    $gemIds.set(new Set([ID]));
    vi.stubGlobal(
      'fetch',
      vi.fn(() => Promise.reject(new TypeError('Failed to fetch'))),
    );
    await toggleGem(ID);
    expect(vi.mocked(fetch).mock.calls[0]?.[1]?.method).toBe('DELETE');
    expect($gemIds.get()?.has(ID)).toBe(true);
    expect($gemToggles.get()[ID]?.error).toBe(GEM_TEXTS.removeFailed);
  });

  test('nothing happens for someone who cannot save gems', async () => {
    $gemIds.set(null);
    vi.stubGlobal('fetch', vi.fn());
    await toggleGem(ID);
    expect(vi.mocked(fetch)).not.toHaveBeenCalled();
    expect($gemIds.get()).toBeNull();
  });
});
