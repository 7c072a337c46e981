import type { Connector } from '@gatehouse/schemas';
import { useOutletContext } from 'react-router';

/** What the tabs read from the detail page: the loaded connector. */
export type ConnectorOutletContext = { connector: Connector };

export const useConnectorOutlet = (): ConnectorOutletContext => useOutletContext<ConnectorOutletContext>();
