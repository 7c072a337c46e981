import type { SsoConnectorWithProviderConfig } from '@gatehouse/schemas';
import { useOutletContext } from 'react-router';

/** What the tabs read from the detail page: the loaded connector. */
export type SsoConnectorOutletContext = { connector: SsoConnectorWithProviderConfig };

export const useSsoConnectorOutlet = (): SsoConnectorOutletContext => useOutletContext<SsoConnectorOutletContext>();
