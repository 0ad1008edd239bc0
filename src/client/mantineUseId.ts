// Stands in for @mantine/hooks' use-id module in the build (vite.config.ts, mantineStableIds).
// Mantine's useId starts from React's id and then, in a layout effect, swaps it for a random one:
// a state change on mount in every component that has an id (inputs, nav links, alerts, popovers,
// the app shell), so React renders them all a second time at once, in the same task as the commit.
// On the hospital dashboard that second render was most of its longest task. React's own id is
// unique within the page and stable for the component's life, which is all the ids are for (labels,
// aria-describedby, aria-controls), and React 19's ids need no escaping in a selector.
import { useId as useReactId } from 'react';

export function useId(staticId?: string): string {
  const reactId = useReactId();
  return typeof staticId === 'string' ? staticId : `mantine-${reactId}`;
}
