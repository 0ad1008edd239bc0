// lazyPage: a page loaded ahead renders in the pass that meets it; one not loaded yet suspends.
// react-dom/server's renderToString does not wait for a suspended page: it writes the fallback.
import { Suspense } from 'react';
import { renderToString } from 'react-dom/server';
import { prerender } from 'react-dom/static';
import { describe, expect, it } from 'vitest';
import { lazyPage } from './lazyPages';

const inSuspense = (Page: ReturnType<typeof lazyPage>) =>
  renderToString(
    <Suspense fallback={<p>spinner</p>}>
      <Page />
    </Suspense>,
  );

describe('lazyPage', () => {
  it('renders the page in the same pass once preload() has loaded it, and loads it once', async () => {
    let loads = 0;
    const Page = lazyPage(async () => {
      loads += 1;
      return { default: () => <h1>Create Account</h1> };
    });
    await Page.preload();
    expect(inSuspense(Page)).toContain('Create Account');
    await Page.preload();
    expect(loads).toBe(1);
  });

  it('suspends a page that has not been loaded, and renders it once loaded', async () => {
    const Page = lazyPage(async () => ({ default: () => <h1>Verify</h1> }));
    expect(inSuspense(Page)).toContain('spinner');
    await Page.preload();
    expect(inSuspense(Page)).toContain('Verify');
  });

  it('hands a failed load to the page, which meets the failure where it renders', async () => {
    let loads = 0;
    const Page = lazyPage(() => {
      loads += 1;
      return Promise.reject(new Error('Failed to fetch dynamically imported module'));
    });
    await expect(Page.preload()).rejects.toThrow('dynamically imported module');
    // prerender waits for what suspends; the page's error reaches onError (in the browser, the
    // page's LoadFailureBoundary), from the same load.
    const errors: unknown[] = [];
    await prerender(
      <Suspense fallback={<p>spinner</p>}>
        <Page />
      </Suspense>,
      { onError: (error) => void errors.push(error) },
    );
    expect(String(errors[0])).toContain('dynamically imported module');
    expect(loads).toBe(1);
  });
});
