import type { Resource } from '@gatehouse/schemas';
import { useOutletContext } from 'react-router';

/** What the detail page hands its tabs: the loaded resource, and whether it is built in (read-only). */
export type ResourceOutletContext = { resource: Resource; isBuiltIn: boolean };

export function useResourceContext(): ResourceOutletContext {
  return useOutletContext<ResourceOutletContext>();
}
