/** Why a thread was rejected: the presets the review queue offers before free text. */
export const REJECTION_REASON_PRESETS = [
  'Not about design or UI',
  'Duplicate of a thread already curated',
  'Low effort or too little to learn from',
  'Promotional or spam',
  'Offensive or unsafe',
] as const;

/** The longest reason an admin may write; the member and the public log read it whole. */
export const REJECTION_REASON_MAX = 300;

/** Why a written reason is refused: the same words in the reject form and in the API's 400. */
export const REJECTION_REASON_MESSAGES = {
  tooLong: `The reason can be at most ${REJECTION_REASON_MAX} characters.`,
  hidden: 'The reason cannot contain control or text-direction characters.',
} as const;
