/**
 * Synthetic design posts written for this project. Authors and handles are fictional; no real
 * person's post is quoted. `image` marks posts that carry one of the generated sample images.
 */
export interface SampleAuthor {
  name: string;
  handle: string;
}

export const SAMPLE_AUTHORS: readonly SampleAuthor[] = [
  { name: 'Maren Holt', handle: 'maren.makes' },
  { name: 'Tobi Okafor', handle: 'tobi.grids' },
  { name: 'Ines Calder', handle: 'inescalder' },
  { name: 'Rafa Lindqvist', handle: 'rafa_types' },
  { name: 'Juno Park', handle: 'juno.interfaces' },
  { name: 'Selim Aydin', handle: 'selim.systems' },
  { name: 'Odile Marchetti', handle: 'odile.motion' },
  { name: 'Kit Brennan', handle: 'kitbrennan.ux' },
  { name: 'Priya Raman', handle: 'priya.pixels' },
  { name: 'Anders Voss', handle: 'anders_voss' },
  { name: 'Lea Moreau', handle: 'lea.colour' },
  { name: 'Dax Whitfield', handle: 'dax.prototypes' },
  { name: 'Noor Haddad', handle: 'noor.a11y' },
  { name: 'Emil Sato', handle: 'emil.sato' },
  { name: 'Carmen Ruiz', handle: 'carmen.canvas' },
  { name: 'Wren Adeyemi', handle: 'wren.studio' },
];

export const SAMPLE_POSTS: readonly { text: string; image: boolean }[] = [
  {
    text: 'Spacing scales beat ad-hoc margins every time. We moved to a 4/8/12/16/24/32 ramp and design reviews got 30% shorter because nobody argues about 14 vs 15 px anymore.',
    image: true,
  },
  {
    text: 'Hot take: your empty states are onboarding. Treat them like the first screen a new user sees, because for most of them it is.',
    image: false,
  },
  {
    text: 'Tested three button hierarchies with 12 people today. The outline secondary button lost every time: people read it as disabled. Tinted fill won.',
    image: true,
  },
  {
    text: "Reminder that focus rings are a feature, not a bug. Style them, don't remove them. A 2px offset outline in your accent colour looks great on almost anything.",
    image: false,
  },
  {
    text: 'New dashboard card layout: number first, label second, trend third. Scanning time dropped noticeably in our hallway tests.',
    image: true,
  },
  {
    text: 'The best micro-interaction is the one that confirms an action without making you wait for it. 150 ms is plenty for a state change.',
    image: false,
  },
  {
    text: 'Sketching a type scale for a reading app. Body at 18 px with a 1.6 line height, headings on a 1.25 ratio. Long-form text wants room to breathe.',
    image: true,
  },
  {
    text: 'Dark mode is not "invert the colours". Lower the contrast of large surfaces, raise it for text, and desaturate your accents a little.',
    image: true,
  },
  {
    text: 'If a form needs a tooltip to explain a field, the label is wrong. Rewrite the label first.',
    image: false,
  },
  {
    text: 'Grid study: 12 columns on desktop, 8 on tablet, 4 on phone, with the gutter fixed at 24 px. Components snap to the grid instead of the grid bending to components.',
    image: true,
  },
  {
    text: 'Design tokens saved our rebrand. We changed 14 values and 600 screens followed. Name tokens by purpose (surface, accent), never by colour (blue-500).',
    image: false,
  },
  {
    text: 'Colour palette exploration for a calm finance app: warm greys, one confident teal, and red reserved strictly for destructive actions.',
    image: true,
  },
  {
    text: 'Skeleton screens should match the real layout closely. A skeleton that jumps when content arrives is worse than a spinner.',
    image: true,
  },
  {
    text: 'Every icon in a toolbar needs a visible label or at least a tooltip and an accessible name. Icons are not a language everyone speaks.',
    image: false,
  },
  {
    text: 'Onboarding flow v3: we cut it from seven screens to three and moved the rest into contextual hints. Completion went way up.',
    image: true,
  },
  {
    text: 'Card design rule of thumb: one primary action per card. If you need two, one of them belongs in a menu.',
    image: false,
  },
  {
    text: 'Prototyped a bottom sheet that snaps to three heights. The middle snap point is where people actually live.',
    image: true,
  },
  {
    text: 'Error messages should say what happened, why, and what to do next, in that order. "Something went wrong" does none of the three.',
    image: false,
  },
  {
    text: "Variable fonts are underused in product UI. One file, every weight, and you can nudge the weight for dark mode so text doesn't look bolder on black.",
    image: true,
  },
  {
    text: 'Motion guideline we landed on: enter with ease-out, exit with ease-in, and never animate anything for longer than 300 ms in a productivity tool.',
    image: false,
  },
  {
    text: 'Settings page redesign. Grouped 40 toggles into 6 sections with plain-language summaries at the top of each. Support tickets about "where is X" dropped.',
    image: true,
  },
  {
    text: 'Stop centring long paragraphs. Left-aligned text is easier to read because the eye knows where the next line starts.',
    image: false,
  },
  {
    text: 'Mobile nav comparison: tab bar vs. hamburger for an app with five destinations. Tab bar wins on discoverability, hamburger on nothing.',
    image: true,
  },
  {
    text: 'Contrast check before every handoff: 4.5:1 for body text, 3:1 for large text and UI components. Takes two minutes, saves a release.',
    image: false,
  },
  {
    text: 'Illustration style exploration for an empty inbox: soft shapes, two colours, no faces. Friendly without being childish.',
    image: true,
  },
  {
    text: 'Design critique tip: ask "what problem does this solve?" before "do I like it?". The second question rarely moves a project forward.',
    image: false,
  },
  {
    text: 'Data table patterns that scale: sticky header, right-aligned numbers, zebra stripes only when rows are wider than the viewport.',
    image: true,
  },
  {
    text: 'The fastest way to improve a landing page is to delete the second paragraph of every section.',
    image: false,
  },
  {
    text: 'Built a component checklist: states (hover, focus, active, disabled, loading, error), sizes, density, RTL, and dark mode. Nothing ships without it.',
    image: true,
  },
  {
    text: 'Rounded corners should nest: inner radius = outer radius minus padding. It is a small detail that makes cards feel machined rather than assembled.',
    image: true,
  },
  {
    text: 'Your design system needs a "when not to use" section for every component. It prevents more bugs than the usage examples do.',
    image: false,
  },
  {
    text: 'Search UI study: show recent searches on focus, suggestions after two characters, and never clear the query when results fail to load.',
    image: true,
  },
  {
    text: 'A good loading state tells you what is loading. "Loading your invoices..." beats a bare spinner every time.',
    image: false,
  },
  {
    text: 'Playing with glass surfaces for a music player. Blur radius 24, 60% opacity, and a 1px inner highlight. Use sparingly; legibility first.',
    image: true,
  },
  {
    text: 'Checkbox vs. toggle: a checkbox needs a save button, a toggle takes effect immediately. Mixing them in one form confuses everyone.',
    image: false,
  },
  {
    text: 'Poster-style type specimen for our new brand serif. Big optical sizes make the ink traps sing.',
    image: true,
  },
  {
    text: 'Pagination or infinite scroll? If people need to come back to a position, paginate. If they are browsing for fun, scroll.',
    image: false,
  },
  {
    text: 'Mapped every notification we send to a user goal. Deleted a third of them. Nobody noticed, except that open rates went up.',
    image: true,
  },
  {
    text: 'Writing UI copy in sentence case makes interfaces feel calmer than Title Case Everywhere.',
    image: false,
  },
  {
    text: "Wireframe to hi-fi in one afternoon by reusing the system's layout primitives: stack, cluster, sidebar, switcher. Four primitives cover most screens.",
    image: true,
  },
  {
    text: 'Touch targets: at least 44 by 44 points, even when the icon is 16. Pad the hit area, not the icon.',
    image: false,
  },
  {
    text: 'Chart colour rule: never rely on hue alone. Add direct labels or patterns so the chart still works in greyscale and for colour-blind readers.',
    image: true,
  },
  {
    text: 'Design review ritual that works: the presenter states the goal, the reviewers write feedback silently for five minutes, then we talk.',
    image: false,
  },
  {
    text: 'Explored three avatar styles for a community app: initials on tinted circles won over illustrations for recognisability at small sizes.',
    image: true,
  },
  {
    text: 'The most underrated design skill is writing. Clear specs, clear copy, clear rationale.',
    image: false,
  },
  {
    text: 'Responsive cards from 320 px up: image on top below 600 px, side by side above. Same component, container queries do the rest.',
    image: true,
  },
  {
    text: "Reduce motion is a preference, not an afterthought. Replace slides with fades when it is on; don't just disable every transition.",
    image: false,
  },
  {
    text: 'Launch page for a small tools studio: monochrome layout, one accent, and screenshots doing all the talking.',
    image: true,
  },
];
