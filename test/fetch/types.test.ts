import { describe, expectTypeOf, it } from 'vitest';
import { createPoliteFetch, createRobotsPolicy } from '@polite-crawler/fetch';
import type {
  Clock,
  Decision,
  PoliteFetch,
  PoliteFetchOptions,
  PoliteResponse,
  RobotsDirectives,
  RobotsPolicy,
  RobotsPolicyOptions,
  RobotsStore,
  StoredRobots,
} from '@polite-crawler/fetch';

describe('public types', () => {
  it('a polite fetch has fetch’s shape and returns a Response with robots directives', () => {
    expectTypeOf(createPoliteFetch).returns.toEqualTypeOf<PoliteFetch>();
    expectTypeOf<string | URL | Request>().toMatchTypeOf<Parameters<PoliteFetch>[0]>();
    expectTypeOf<PoliteResponse>().toMatchTypeOf<Response>();
    expectTypeOf<ReturnType<PoliteFetch>>().toEqualTypeOf<Promise<PoliteResponse>>();
    expectTypeOf<PoliteResponse['robots']>().toEqualTypeOf<RobotsDirectives>();
    expectTypeOf<PoliteResponse['status']>().toEqualTypeOf<number>();
    expectTypeOf<PoliteResponse>().toHaveProperty('arrayBuffer');
    expectTypeOf<PoliteFetch['policy']>().toEqualTypeOf<RobotsPolicy>();
  });

  it('the result is assignable to the global Response; global Headers and RequestInit are accepted', () => {
    const politeFetch = createPoliteFetch({
      userAgent: 'ExampleBot/1.0 (+https://example.com/bot)',
    });
    // Compiled, never run: what a consumer writes (TS2322 here was the bug).
    const consumer = async (): Promise<Response> => {
      const response: Response = await politeFetch('https://example.com/');
      const init: RequestInit = { headers: new Headers({ accept: 'text/html' }), method: 'GET' };
      return response.ok ? response : await politeFetch(new URL('https://example.com/'), init);
    };
    expectTypeOf(consumer).returns.toEqualTypeOf<Promise<Response>>();
    expectTypeOf<RequestInit>().toMatchTypeOf<NonNullable<Parameters<PoliteFetch>[1]>>();
    expectTypeOf<Headers>().toMatchTypeOf<
      NonNullable<NonNullable<Parameters<PoliteFetch>[1]>['headers']>
    >();
    void politeFetch.close();
  });

  it('options: userAgent is required; a shared policy replaces the policy options', () => {
    expectTypeOf<{ userAgent: string }>().toMatchTypeOf<RobotsPolicyOptions>();
    expectTypeOf<{ productToken: string }>().not.toMatchTypeOf<RobotsPolicyOptions>();
    expectTypeOf<{ policy: RobotsPolicy; noindex: 'reject' }>().toMatchTypeOf<PoliteFetchOptions>();
    expectTypeOf<{
      policy: RobotsPolicy;
      minInterval: 5;
    }>().not.toMatchTypeOf<PoliteFetchOptions>();
    expectTypeOf<{
      policy: RobotsPolicy;
      userAgent: string;
    }>().not.toMatchTypeOf<PoliteFetchOptions>();
    expectTypeOf<{ userAgent: string; crawlDelay: 'honor' }>().toMatchTypeOf<PoliteFetchOptions>();
    expectTypeOf<{ userAgent: string; noindex: 'drop' }>().not.toMatchTypeOf<PoliteFetchOptions>();
    expectTypeOf(createRobotsPolicy).parameter(0).toEqualTypeOf<RobotsPolicyOptions>();
  });

  it('decisions are objects, never tri-state booleans', () => {
    expectTypeOf<Decision['allowed']>().toEqualTypeOf<boolean>();
    expectTypeOf<Decision['reason']>().toEqualTypeOf<
      'allowed' | 'disallowed' | 'unavailable' | 'unreachable'
    >();
    expectTypeOf<RobotsPolicy['peek']>().returns.toEqualTypeOf<Decision | undefined>();
    expectTypeOf<RobotsPolicy['check']>().returns.toEqualTypeOf<Promise<Decision>>();
  });

  it('stores are async and their entries plain data', () => {
    expectTypeOf<RobotsStore['get']>().returns.toEqualTypeOf<Promise<StoredRobots | undefined>>();
    expectTypeOf<StoredRobots['version']>().toEqualTypeOf<1>();
    expectTypeOf<Clock['sleep']>().returns.toEqualTypeOf<Promise<void>>();
  });
});
