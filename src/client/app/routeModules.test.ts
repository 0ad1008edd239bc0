import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { PUBLIC_PAGES } from './lazyPages';
import { ROUTE_MODULES, WORKSPACE_MODULES, WORKSPACE_PROVIDERS_MODULE } from './routeModules';

const client = path.resolve('src/client');
const source = (file: string) => fs.readFileSync(path.join(client, file), 'utf8');

describe('ROUTE_MODULES', () => {
  it('has the paths of the public pages (PUBLIC_PAGES, which App.tsx routes)', () => {
    expect(Object.keys(ROUTE_MODULES).sort()).toEqual(Object.keys(PUBLIC_PAGES).sort());
  });

  it('names, for each of its paths, the module lazyPages.tsx loads for that page', () => {
    const lazyPages = source('app/lazyPages.tsx');
    for (const [route, module] of Object.entries(ROUTE_MODULES)) {
      // '/signup': SignupPage: the page's name, then how it is loaded.
      const page = new RegExp(`'${route}': (\\w+),`).exec(lazyPages)?.[1];
      expect(page, route).toBeDefined();
      const declaration = new RegExp(`export const ${page} = [^;]*;`).exec(lazyPages)?.[0];
      expect(declaration, route).toBeDefined();
      const loaded = module.replace(/\.tsx$/, '');
      const sharedLoader = /= (\w+)\(/.exec(declaration!)?.[1];
      // A page loaded through a helper (loginPage('HospitalLoginPage')) imports inside the helper.
      const loader =
        sharedLoader && sharedLoader !== 'lazyPage'
          ? new RegExp(`const ${sharedLoader} = [^;]*;`).exec(lazyPages)?.[0]
          : declaration;
      expect(loader, route).toContain(`import('../${loaded}')`);
      expect(fs.existsSync(path.join(client, module)), module).toBe(true);
    }
  });
});

describe('WORKSPACE_MODULES', () => {
  const app = source('app/App.tsx');
  const lazyPages = source('app/lazyPages.tsx');
  // How lazyPages.tsx (in app/) imports a module named by its path under src/client.
  const importOf = (module: string) => {
    const relative = path.posix.relative('app', module.replace(/\.tsx$/, ''));
    return `import('${relative.startsWith('.') ? relative : `./${relative}`}')`;
  };

  it('names, for each signed-in path App.tsx routes, the module lazyPages.tsx loads with workspacePage', () => {
    for (const [route, module] of Object.entries(WORKSPACE_MODULES)) {
      // path="/hospital-dashboard" element={<RequireRole ...><HospitalDashboardPage /></RequireRole>}
      const page = new RegExp(`path="${route}"\\s+element=\\{[\\s\\S]*?<(\\w+Page) />`).exec(app)?.[1];
      expect(page, route).toBeDefined();
      const declaration = new RegExp(`export const ${page} = workspacePage\\([^;]*;`).exec(lazyPages)?.[0];
      expect(declaration, route).toContain(importOf(module));
    }
  });

  it('has every page lazyPages.tsx declares with workspacePage, and the providers it loads with them', () => {
    const declared = [...lazyPages.matchAll(/export const (\w+) = workspacePage\(/g)].map((m) => m[1]);
    expect(declared.length).toBe(Object.keys(WORKSPACE_MODULES).length);
    for (const page of declared) expect(app, page).toContain(`<${page} />`);
    expect(lazyPages).toContain(importOf(WORKSPACE_PROVIDERS_MODULE));
  });
});
