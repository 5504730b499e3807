import { describe, expect, test } from 'vitest';
import { FOLD_FROM, FOLD_TO, foldName } from '../../../contract/name-fold.ts';

// Lookalike names (decision 065): pairs that read alike fold alike; pairs that read apart do not.
describe('folding names', () => {
  test.each([
    ['adm1n', 'admin'],
    ['ADMIN', 'admin'],
    ['ori_ux', 'ori.ux'],
    ['oriux', 'ori.ux'],
    ['o_r_i_u_x', 'ORI.UX'],
    ['b0b', 'bob'],
    ['B0B', 'bOb'],
    ['lena', 'Iena'], // l and capital I
    ['1ena', 'iena'],
    ['l1li', 'IiL1'],
    ['g00gle', 'GOOGLE'],
    ['sign_in', 'signin'],
    ['well.known', 'well_known'],
  ])('%s ≈ %s', (one, other) => {
    expect(foldName(one)).toBe(foldName(other));
  });

  test.each([
    ['admin', 'admins'],
    ['bob', 'bab'],
    ['ori_ux', 'ori_ix'],
    ['s5', 'ss'], // 5 and s read apart: not folded
    ['rn', 'm'], // font-dependent: not folded
    ['maren', 'karen'],
  ])('%s ≉ %s', (one, other) => {
    expect(foldName(one)).not.toBe(foldName(other));
  });

  test('the folded form: lower case, no dot or underscore, 0 as o, 1 l i as i', () => {
    expect(foldName('Ori.UX_01l')).toBe('oriuxoii');
    expect(foldName('')).toBe('');
    // What it leaves alone stays as it was (other letters, digits, characters display names refuse).
    expect(foldName('a-9z2')).toBe('a-9z2');
  });

  test('the SQL translate() pairs: each of FOLD_FROM maps as foldName does, the tail is dropped', () => {
    expect(FOLD_FROM.length).toBeGreaterThan(FOLD_TO.length);
    for (const [at, from] of [...FOLD_FROM].entries()) expect(foldName(from)).toBe(FOLD_TO[at] ?? '');
  });
});
