// The writing material of the simulated posts: fictional authors and hand-written fragments that
// seed-posts.ts combines into texts. No real people, no text from anywhere else.

export interface Topic {
  keyword: string;
  /** Tags a post on this topic may carry; repeats weight the choice. */
  tags: readonly string[];
  /** Each insight contains the keyword, so keyword search always finds the post. */
  insights: readonly string[];
  specifics: readonly string[];
  /** Each question contains the keyword too. */
  questions: readonly string[];
}

/** Hashtag-style topics posts may be filed under (TAG search). */
export const TOPIC_TAGS: readonly string[] = [
  'UXDesign',
  'DesignSystems',
  'Typography',
  'Accessibility',
  'UIDesign',
  'ProductDesign',
];

export const TOPICS: readonly Topic[] = [
  {
    keyword: 'design system',
    tags: ['DesignSystems', 'DesignSystems', 'UIDesign'],
    insights: [
      'A design system is a product, not a side project: give it a roadmap, a changelog and someone who owns it.',
      'Your design system should document when not to use a component, not just how to use it.',
      'Naming tokens by intent (surface-raised, text-muted) instead of by value is what lets a design system survive a rebrand.',
      'The fastest way to kill adoption of a design system is to make contributing slower than detaching the component.',
      'Audit before you build: count the button variants already in production before the design system team invents another.',
      'Every design system needs a deprecation policy. Components that never die turn into a museum nobody trusts.',
      'Treat the design system docs like a product page: search, real examples, and code snippets that actually compile.',
    ],
    specifics: [
      'We version tokens separately from components, so a small palette tweak never forces a full release.',
      'Our spacing scale is 4, 8, 12, 16, 24, 32 and 48, and a one-off value needs a written reason.',
      'Office hours twice a week did more for adoption than any announcement ever did.',
      'Every component carries a status now: experimental, stable or deprecated.',
      'A lint rule that flags hard-coded hex values caught more drift than our manual audits.',
    ],
    questions: [
      'How do you get engineers to contribute back to the design system instead of forking components?',
      'Who owns your design system once the team that built it moves on to other work?',
    ],
  },
  {
    keyword: 'typography',
    tags: ['Typography'],
    insights: [
      'Good typography on screens starts with line length: aim for roughly 45 to 75 characters per line before anything else.',
      'Most typography problems in product UI are hierarchy problems: too many sizes, too few weights doing real work.',
      'Variable fonts changed my typography workflow: one file, fine-grained weights, and optical sizing for small labels.',
      'Set line height per text style, not globally. Typography at 12px and at 40px wants very different leading.',
      'Tabular figures are an underrated typography detail: in tables and dashboards they stop numbers from jittering.',
      'A modular scale is a starting point for typography, not a law. Round the sizes to values your grid can live with.',
      'Check your typography at 200% zoom. If a heading wraps onto four lines, the scale is too aggressive.',
    ],
    specifics: [
      'We went from nine text sizes to six and nobody on the team missed the extras.',
      'Body copy sits at 16px with a 1.5 line height; captions at 13px with a touch more letter spacing.',
      'Slightly tighter tracking on headings made the whole app feel more deliberate.',
      'Fallback font metrics matter too: size-adjust keeps the layout from jumping while the web font loads.',
      'We keep one display face and one text face. Two families is plenty for a product.',
    ],
    questions: [
      'What is your go-to typography setup for data-heavy dashboards?',
      'Do you still use a modular scale for typography, or pick sizes by eye and adjust?',
    ],
  },
  {
    keyword: 'accessibility',
    tags: ['Accessibility', 'UXDesign'],
    insights: [
      'Accessibility is not a final QA pass. If it is not in the acceptance criteria, it will not ship.',
      'Hiding the focus ring because it looks odd is an accessibility bug. Design a better one: a 2px outline with an offset works on most backgrounds.',
      'The accessibility check I run on every screen: can I finish the main task with only a keyboard, in a sensible order?',
      'A 4.5:1 contrast ratio for body text is the floor, not the goal. Accessibility gets easier when the palette is built around it from day one.',
      'Touch targets of at least 44 by 44 points are one of the cheapest accessibility wins there is.',
      'Placeholder text is not a label. Accessibility and usability both suffer when the hint vanishes as soon as someone types.',
      'Accessibility includes motion: respect reduced-motion settings and give anything that autoplays a pause control.',
    ],
    specifics: [
      'We added a screen reader pass to our definition of done and bug counts dropped within a quarter.',
      'Error messages now say what went wrong and how to fix it, and they are announced, not just tinted red.',
      'Form fields keep visible labels above the input; no more floating label tricks.',
      'Sessions with people who rely on assistive technology taught us more than any automated checker.',
      'Links in body text are underlined again, because a hue change alone was never enough.',
    ],
    questions: [
      'How do you make accessibility reviews part of the sprint without becoming the bottleneck?',
      'What is the accessibility issue you find most often in design reviews?',
    ],
  },
  {
    keyword: 'figma',
    tags: ['DesignSystems', 'UIDesign', 'ProductDesign'],
    insights: [
      'Auto layout in Figma is worth learning properly. Frames that resize like real components save hours of nudging later.',
      'Figma variables for spacing and color made our handoff cleaner: developers read the same names they use in code.',
      'Name your Figma layers as if someone else will open the file at midnight before a launch. Someone will.',
      'A Figma file is not documentation. Link the decision, the research and the ticket, or the context is gone in a month.',
      'Keep a Figma page called graveyard for explorations you killed. It saves the next designer from repeating them.',
      'Component properties in Figma beat a wall of variants: fewer variants, more booleans and instance swaps.',
      'Stop showing polished Figma mocks in the first review. Grey boxes get better feedback because nobody argues about shades.',
    ],
    specifics: [
      'Our files open on a cover page with status, owner and last review date, which answers half the questions in chat.',
      'We split the libraries into foundations, components and patterns so each update stays small.',
      'Branching kept the main library stable while we reworked the navigation.',
      'Annotations for loading, empty and error states now sit next to every screen.',
      'Dev mode links straight to token names, so nobody guesses hex values anymore.',
    ],
    questions: [
      'How are you structuring Figma libraries for teams that ship more than one product?',
      'Do you keep old explorations in the main Figma file or archive them somewhere else?',
    ],
  },
  {
    keyword: 'ux research',
    tags: ['UXDesign', 'ProductDesign'],
    insights: [
      'UX research does not need a lab. Five conversations with real users this week beat a perfect study next quarter.',
      'The best UX research question starts with "tell me about the last time", not "would you use".',
      'Share UX research as short clips, not decks. Thirty seconds of someone struggling changes minds faster than a chart.',
      'UX research findings need an owner and a deadline, or they quietly become a folder nobody opens.',
      'Do not let UX research happen only before the build. Test the shipped thing too; that is where the surprises live.',
      'Recruiting is the hardest part of UX research. Keep a standing panel of customers who agreed to be contacted.',
      'Good UX research separates what people say from what they do. Watch the task first, then ask about it.',
    ],
    specifics: [
      'We run usability testing every other Thursday, three sessions, whatever is on the roadmap.',
      'A shared note template with observations, quotes and severity keeps synthesis fast.',
      'Product managers sit in on at least one session a month, and it changed how they write requirements.',
      'Every insight is tagged with the feature it affects, so it resurfaces during planning.',
      'Our onboarding redesign came almost entirely from watching people skip the welcome tour.',
    ],
    questions: [
      'How do you share UX research with people who never read the report?',
      'What is the smallest amount of UX research you would do before a redesign?',
    ],
  },
  {
    keyword: 'color',
    tags: ['UIDesign', 'Accessibility'],
    insights: [
      'Build your color palette in a perceptual space like OKLCH, where equal steps in lightness actually look equal.',
      'Semantic color tokens matter more than the palette itself: success, warning and danger should mean one thing everywhere.',
      'Never use color as the only signal. A red border plus an icon plus a message is the minimum for an error state.',
      'Dark mode is not inverted color. Lower the saturation, lift the surfaces and check every contrast pair again.',
      'One accent color is usually enough. When everything is highlighted, nothing is.',
      'Test your color choices in grayscale. If the hierarchy disappears, it was leaning on hue alone.',
      'Pure black on pure white can feel harsh on big screens. A near-black text color with solid contrast reads calmer.',
    ],
    specifics: [
      'Our neutral ramp has twelve steps and the UI uses maybe seven of them, which is fine.',
      'Charts get their own palette, checked against the common types of color blindness.',
      'The contrast ratio of every text and background pair is written right in the token file.',
      'The brand blue stayed, but we darkened it two steps for text so it passes at small sizes.',
      'Status badges pair a tinted background with a darker text shade from the same hue.',
    ],
    questions: [
      'How many steps does your neutral color ramp have, and how many do you actually use?',
      'Do you build the dark theme color palette separately or derive it from the light one?',
    ],
  },
  {
    keyword: 'motion design',
    tags: ['UIDesign', 'ProductDesign'],
    insights: [
      'Motion design in product UI should explain, not decorate: where did this panel come from, and where did it go?',
      'Most interface transitions feel right between 150 and 300 milliseconds. Beyond that, motion design starts to feel like waiting.',
      'Easing is half of motion design: ease-out for things entering, ease-in for things leaving, linear almost never.',
      'Good motion design plans the reduced-motion version from the start instead of bolting it on after a complaint.',
      'Motion design specs belong in tokens too: named durations and easing curves, not magic numbers in every file.',
      'Skeleton screens with a subtle shimmer are motion design doing real work: they make waiting feel shorter.',
      'The best motion design in an app is often the one nobody comments on. It just feels responsive.',
    ],
    specifics: [
      'We have three durations, fast, base and slow, and one standard curve for most transitions.',
      'Dialogs scale up from 96% with a quick fade instead of sliding down from the top.',
      'List items stagger by 20ms at most; anything more and the page feels slow.',
      'We prototype timing in the browser now, because the numbers in a design tool never matched production.',
      'A tiny press state on buttons made the interface feel faster without changing load times.',
    ],
    questions: [
      'Who owns motion design on your team: designers, engineers, or whoever cares the most?',
      'How do you hand off motion design specs so the timing survives implementation?',
    ],
  },
  {
    keyword: 'prototyping',
    tags: ['ProductDesign', 'UXDesign'],
    insights: [
      'Prototyping is for answering a question. Write the question down before you build anything.',
      'Low-fidelity prototyping gets honest feedback. People feel free to criticize a sketch, not a polished screen.',
      'Prototyping with real content exposes what placeholder text hides: long names, empty lists, three-line titles.',
      'Code prototyping pays off for anything with motion, live data or complex input. Static frames lie about those.',
      'Throw the prototype away. Prototyping code that sneaks into production becomes the scariest code you own.',
      'Paper prototyping still works for flows. Ten minutes with sticky notes can save a week of screens.',
      'Prototyping the unhappy path is where the real design work hides: errors, timeouts and empty states.',
    ],
    specifics: [
      'Our onboarding prototype tested three versions of the first screen in a single afternoon.',
      'Every prototype is timeboxed to two days so it stays a question, not a project.',
      'Clickable flows go to usability testing before any visual polish happens.',
      'A fake loading delay in the prototype showed that nobody understood the spinner.',
      'The empty state microcopy we tried out became the one that shipped, almost word for word.',
    ],
    questions: [
      'What is your favorite prototyping tool for flows that need real data?',
      'How much fidelity do you put into prototyping before the first usability test?',
    ],
  },
];

/** The keywords posts are written around (KEYWORD search). */
export const SEARCH_KEYWORDS: readonly string[] = TOPICS.map((topic) => topic.keyword);

export const OPENERS: readonly string[] = [
  'Unpopular opinion:',
  'Small thing I keep relearning:',
  "Note to self after this week's review:",
  'A lesson from shipping our last release:',
  'Hot take for the design crowd:',
  'Something I wish I had known as a junior designer:',
  'Quick tip:',
  'After a year of doing this at work:',
  'Reminder for anyone running a design critique:',
  'Been thinking about this all week.',
  'From the notes of our last retro:',
  'Mentoring session takeaway:',
  'Three projects in, I am convinced of this:',
  'Said this in a review today and it landed, so here it is:',
];

export const CLOSERS: readonly string[] = [
  'Curious how other teams handle this.',
  'Would love to hear what works for you.',
  'It is boring work, and it pays off every single sprint.',
  'Small change, big difference in the reviews.',
  'Change my mind.',
  'Your future self will thank you.',
  'Anyone else seeing the same thing?',
  'Worth the extra hour, every time.',
  'Nobody notices when it works, which is the point.',
  'What would you add?',
  'Writing this down so I stop forgetting it.',
  'The engineers on the team noticed before our users did.',
  'Still iterating, but the direction feels right.',
];

export type Slot = 'opener' | 'insight' | 'specific' | 'closer' | 'question' | 'context';
export const TEMPLATES: readonly (readonly Slot[])[] = [
  ['opener', 'insight', 'closer'],
  ['insight', 'specific', 'closer'],
  ['opener', 'insight', 'specific'],
  ['insight', 'specific'],
  ['question', 'context'],
  ['insight', 'closer'],
];

/** Fictional design people who author the seeded posts. */
export const SEED_AUTHORS: readonly { username: string; displayName: string }[] = [
  { username: 'maren.makes', displayName: 'Maren Holt' },
  { username: 'tobias_grid', displayName: 'Tobias Lindqvist' },
  { username: 'priya.pixels', displayName: 'Priya Raman' },
  { username: 'kofi.designs', displayName: 'Kofi Mensah-Arthur' },
  { username: 'lena.kerning', displayName: 'Lena Vasquez' },
  { username: 'ori.ux', displayName: 'Ori Feldmann' },
  { username: 'sunniva.studio', displayName: 'Sunniva Berg' },
  { username: 'dario_prototypes', displayName: 'Dario Conti' },
  { username: 'hana.tokens', displayName: 'Hana Okabe' },
  { username: 'felix.frames', displayName: 'Felix Ambrose' },
  { username: 'amara.ui', displayName: 'Amara Obi-Lennox' },
  { username: 'jonas.contrast', displayName: 'Jonas Petrescu' },
  { username: 'ines.research', displayName: 'Ines Carvalho' },
  { username: 'theo_motion', displayName: 'Theo Marchetti' },
  { username: 'yuki.layouts', displayName: 'Yuki Tanabe' },
  { username: 'nadia.notes', displayName: 'Nadia Farouk' },
  { username: 'calum.craft', displayName: 'Calum Reid' },
  { username: 'rosa.systems', displayName: 'Rosa Lindgren' },
  { username: 'emeka.builds', displayName: 'Emeka Duru' },
  { username: 'vera_type', displayName: 'Vera Kowalczyk' },
  { username: 'samir.sketches', displayName: 'Samir Haddad' },
  { username: 'ada.interfaces', displayName: 'Ada Thornbury' },
  { username: 'luca.flows', displayName: 'Luca Brennan' },
  { username: 'mira.spacing', displayName: 'Mira Solberg' },
  { username: 'quinn.product', displayName: 'Quinn Alder' },
  { username: 'zofia.a11y', displayName: 'Zofia Marek' },
];
