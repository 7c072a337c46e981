import type { Organization } from '@gatehouse/schemas';
import { useOutletContext } from 'react-router';

/** What the tabs read from the detail page: the loaded organization. */
export type OrganizationOutletContext = { organization: Organization };

export const useOrganizationOutlet = (): OrganizationOutletContext => useOutletContext<OrganizationOutletContext>();
