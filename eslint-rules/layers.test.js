// The boundary rule on imports in the files it guards (RuleTester runs each case through ESLint).
import path from 'node:path';
import { RuleTester } from 'eslint';
import tseslint from 'typescript-eslint';
import { afterAll, describe, it } from 'vitest';
import layers from './layers.js';

RuleTester.afterAll = afterAll;
RuleTester.describe = describe;
RuleTester.it = it;

const at = (file) => path.resolve(import.meta.dirname, '..', file);
const tester = new RuleTester({ languageOptions: { parser: tseslint.parser } });

tester.run('layers', layers, {
  valid: [
    { filename: at('src/client/app/App.tsx'), code: "import { x } from '../pages/hospital-dashboard/tabs';" },
    { filename: at('src/client/main.tsx'), code: "import { App } from './app/App';" },
    { filename: at('src/client/pages/p/Page.tsx'), code: "import { x } from '../../features/records/api';" },
    { filename: at('src/client/features/records/A.tsx'), code: "import { x } from '../patients/api';" },
    {
      filename: at('src/client/features/records/A.tsx'),
      code: "import { x } from '../../components/Panel';",
    },
    {
      filename: at('src/client/components/Panel.tsx'),
      code: "import { x } from '../format'; import '@mantine/core';",
    },
    { filename: at('src/client/app/lazyPages.tsx'), code: "const p = () => import('../pages/a/Page');" },
    {
      filename: at('src/client/features/auth/LoginForm.test.tsx'),
      code: "import { renderApp } from '../../test/render';",
    },
    {
      filename: at('src/client/test/render.tsx'),
      code: "import { WorkspaceProviders } from '../components/WorkspaceProviders';",
    },
    { filename: at('src/server/features/proxy/routes.ts'), code: "import { a } from './invitations.js';" },
    { filename: at('src/server/app.ts'), code: "import { proxyRoutes } from './features/proxy/routes.js';" },
  ],
  invalid: [
    {
      filename: at('src/client/features/records/A.tsx'),
      code: "import { x } from '../../pages/patient-dashboard/dashboard';",
      errors: [
        {
          messageId: 'upward',
          data: { from: 'features/', to: 'pages/', source: '../../pages/patient-dashboard/dashboard' },
        },
      ],
    },
    {
      filename: at('src/client/features/auth/LoginForm.tsx'),
      code: "export { addPageChunks } from '../../app/pageChunks';",
      errors: [{ messageId: 'upward' }],
    },
    {
      filename: at('src/client/components/Panel.tsx'),
      code: "import { useActivity } from '../features/audit/api';",
      errors: [{ messageId: 'upward' }],
    },
    {
      filename: at('src/client/components/DocumentTitle.tsx'),
      code: "type T = typeof import('../pages/hospital-dashboard/tabs');",
      errors: [{ messageId: 'upward' }],
    },
    {
      filename: at('src/client/auth/AuthProvider.tsx'),
      code: "const c = () => import('../components/Panel');",
      errors: [{ messageId: 'upward' }],
    },
    {
      filename: at('src/client/pages/p/Page.tsx'),
      code: "import { App } from '../../app/App';",
      errors: [{ messageId: 'upward' }],
    },
    {
      filename: at('src/server/features/consent/routes.ts'),
      code: "import { inviteDeps } from '../proxy/routes.js';",
      errors: [{ messageId: 'routeFile' }],
    },
  ],
});
