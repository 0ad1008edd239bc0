// The import boundaries of docs/architecture.md#layout, as one lint rule:
// - the client's layers import only downwards: app (boot and routing) > pages > features >
//   components > the rest (api, auth, format, theme...). A feature never imports a page or the app;
//   a component imports no feature, page or app code.
// - a server route file (src/server/features/*/routes.ts) imports no other route file: what two
//   features' routes share belongs in a service or a plugin.
// Only relative imports are resolved; the client has no path aliases.
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const client = path.join(root, 'src/client');
const serverFeatures = path.join(root, 'src/server/features');

/** The client's layers, highest first: a module may import its own layer and those below it. */
const CLIENT_LAYERS = ['app', 'pages', 'features', 'components'];
const BELOW_ALL = CLIENT_LAYERS.length;

/**
 * The client layer of a file, or null where no layer applies: outside the client, and the component
 * tests' harness (src/client/test/), which renders any layer in the app's providers. `main.tsx`,
 * the entry, is the app's.
 */
function clientRank(file) {
  const relative = path.relative(client, file);
  if (relative.startsWith('..') || path.isAbsolute(relative)) return null;
  const [first] = relative.split(path.sep);
  if (first === 'test') return null;
  if (first === 'main.tsx' || first === 'main') return 0;
  const rank = CLIENT_LAYERS.indexOf(first);
  return rank === -1 ? BELOW_ALL : rank;
}

const layerName = (rank) => (rank === BELOW_ALL ? 'src/client (api, auth, ...)' : `${CLIENT_LAYERS[rank]}/`);

/** A feature's route file: src/server/features/<feature>/routes.ts (or .js as imported). */
function isRouteFile(file) {
  const relative = path.relative(serverFeatures, file);
  if (relative.startsWith('..') || path.isAbsolute(relative)) return false;
  const parts = relative.split(path.sep);
  return parts.length === 2 && /^routes(\.[jt]s)?$/.test(parts[1]);
}

export default {
  meta: {
    type: 'problem',
    docs: { description: 'Client layers import only downwards; route files import no other route file.' },
    schema: [],
    messages: {
      upward:
        '{{from}} may not import {{to}} ({{source}}): layers import only downwards (app > pages > features > components). Move what both need down.',
      routeFile:
        'A route file imports no other route file ({{source}}): put what both need in a service or a plugin.',
    },
  },
  create(context) {
    const file = context.filename;
    const fromRank = clientRank(file);
    const fromRoute = isRouteFile(file);
    if (fromRank === null && !fromRoute) return {};

    function check(node, source) {
      if (typeof source !== 'string' || !source.startsWith('.')) return;
      const target = path.resolve(path.dirname(file), source);
      if (fromRoute && isRouteFile(target) && target.replace(/\.[jt]s$/, '') !== file.replace(/\.ts$/, '')) {
        context.report({ node, messageId: 'routeFile', data: { source } });
      }
      if (fromRank === null) return;
      const toRank = clientRank(target);
      if (toRank !== null && toRank < fromRank) {
        context.report({
          node,
          messageId: 'upward',
          data: { from: layerName(fromRank), to: layerName(toRank), source },
        });
      }
    }

    const fromSource = (node) => node.source && check(node.source, node.source.value);
    return {
      ImportDeclaration: fromSource,
      ExportNamedDeclaration: fromSource,
      ExportAllDeclaration: fromSource,
      ImportExpression: (node) => node.source.type === 'Literal' && check(node.source, node.source.value),
      TSImportType: (node) => {
        const literal = node.argument?.literal ?? node.source;
        if (literal?.type === 'Literal') check(literal, literal.value);
      },
    };
  },
};
