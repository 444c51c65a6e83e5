import { afterAll, describe, expect, it } from 'vitest';
import { createRobotsPolicy, isRobotsInvalidOptionError } from '@polite-crawler/fetch';
import {
  functionOption,
  integerOption,
  oneOfOption,
  robotsPolicyOption,
} from '@polite-crawler/fetch/internal';
import { thrown } from './helpers/thrown.js';

describe('integerOption', () => {
  it('returns the fallback for undefined and the value within the bounds, ends included', () => {
    expect(integerOption('n', undefined, [1, 5], 3)).toBe(3);
    expect(integerOption('n', 1, [1, 5], 3)).toBe(1);
    expect(integerOption('n', 5, [1, 5], 3)).toBe(5);
  });

  it.each([0, 6, 2.5, Number.NaN, Infinity, '2', null])(
    'refuses %s, naming the option',
    (value) => {
      const error = thrown(() => integerOption('maxThings', value, [1, 5], 3));
      expect(isRobotsInvalidOptionError(error)).toBe(true);
      expect(error).toMatchObject({
        code: 'ERR_ROBOTS_INVALID_OPTION',
        option: 'maxThings',
        value,
      });
      expect((error as Error).message).toContain('maxThings (an integer from 1 to 5; got ');
    },
  );
});

describe('oneOfOption', () => {
  it('returns the fallback for undefined and an allowed value as it is', () => {
    expect(oneOfOption('pace', undefined, ['all', 'documents'], 'all')).toBe('all');
    expect(oneOfOption('pace', 'documents', ['all', 'documents'], 'all')).toBe('documents');
  });

  it.each(['ALL', 'none', 1, null])('refuses %s, listing what is allowed', (value) => {
    const error = thrown(() => oneOfOption('pace', value, ['all', 'documents'], 'all'));
    expect(error).toMatchObject({ option: 'pace', value });
    expect((error as Error).message).toContain("pace (one of 'all', 'documents'; got ");
  });
});

describe('functionOption', () => {
  it('passes a function or undefined through', () => {
    const onEvent = (): void => {};
    expect(functionOption('onEvent', onEvent)).toBe(onEvent);
    expect(functionOption('onEvent', undefined)).toBeUndefined();
  });

  it.each([null, 'log', {}])('refuses %s', (value) => {
    expect(thrown(() => functionOption('onEvent', value))).toMatchObject({
      option: 'onEvent',
      message: expect.stringContaining('onEvent (a function; got ') as unknown,
    });
  });
});

describe('robotsPolicyOption', () => {
  const policy = createRobotsPolicy({ userAgent: 'ExampleBot/1.0 (+https://example.com/bot)' });
  afterAll(() => policy.close());

  /** A plain object with the real policy's identity and public methods (as another install's would have). */
  function shapeOf(): Record<string, unknown> {
    const shape: Record<string, unknown> = { userAgent: 'X/1', productToken: 'X' };
    const members = policy as unknown as Record<string, unknown>;
    for (const name of Object.getOwnPropertyNames(Object.getPrototypeOf(policy))) {
      if (name !== 'constructor' && typeof members[name] === 'function') shape[name] = () => {};
    }
    return shape;
  }

  it('accepts a policy from createRobotsPolicy, and a copy of its shape (another install)', () => {
    expect(robotsPolicyOption('policy', policy)).toBe(policy);
    const lookalike = shapeOf();
    expect(robotsPolicyOption('policy', lookalike)).toBe(lookalike);
  });

  const refusals: [string, () => unknown][] = [
    ['an empty object', () => ({})],
    ['null', () => null],
    ['a string', () => 'policy'],
    ...['close', 'peek', 'userAgent', 'productToken'].map((missing): [string, () => unknown] => [
      `a policy without ${missing}`,
      () => ({ ...shapeOf(), [missing]: undefined }),
    ]),
  ];

  it.each(refusals)('refuses %s, naming the option', (_, value) => {
    const error = thrown(() => robotsPolicyOption('shared', value()));
    expect(isRobotsInvalidOptionError(error)).toBe(true);
    expect(error).toMatchObject({ option: 'shared' });
    expect((error as Error).message).toContain('a RobotsPolicy from createRobotsPolicy()');
  });
});
