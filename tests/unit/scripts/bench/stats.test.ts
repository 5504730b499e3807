import { describe, expect, test } from 'vitest';
import { marginalPerThousand, median, ratio, round } from '../../../../scripts/bench/stats.ts';

describe('median', () => {
  test('the middle value of an odd count, whatever the order', () => {
    expect(median([5, 1, 3])).toBe(3);
    expect(median([99, 100, 96, 100, 97])).toBe(99);
  });

  test('the mean of the middle two of an even count', () => {
    expect(median([4, 1, 3, 2])).toBe(2.5);
  });

  test('ignores values that are not numbers, and is NaN for none', () => {
    expect(median([Number.NaN, 7, Number.POSITIVE_INFINITY])).toBe(7);
    expect(median([])).toBeNaN();
  });
});

describe('ratio', () => {
  test('divides the product by its reference', () => {
    expect(ratio(400, 1000)).toBe(0.4);
  });

  test('is null when either side is missing or the reference is not positive', () => {
    expect(ratio(null, 10)).toBeNull();
    expect(ratio(10, undefined)).toBeNull();
    expect(ratio(10, 0)).toBeNull();
    expect(ratio(Number.NaN, 10)).toBeNull();
  });
});

test('round keeps the asked decimals', () => {
  expect(round(0.12345)).toBe(0.12);
  expect(round(1.995, 1)).toBe(2);
});

describe('marginalPerThousand', () => {
  test('the extra cost of each 1,000 items between two sizes', () => {
    expect(marginalPerThousand({ count: 1000, value: 5 }, { count: 10_000, value: 23 })).toBe(2);
  });

  test('refuses a "larger" measurement that is not larger', () => {
    expect(() => marginalPerThousand({ count: 1000, value: 5 }, { count: 1000, value: 6 })).toThrow();
  });
});
