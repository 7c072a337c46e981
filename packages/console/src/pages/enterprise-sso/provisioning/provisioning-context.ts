import type { ScimConnectionWithToken, SsoConnectorWithProviderConfig } from '@gatehouse/schemas';
import { useOutletContext } from 'react-router';

/**
 * What the setup dialog (a child route of the provisioning tab) reads from the tab: the connector, and where the new
 * connection's token goes to be shown once.
 */
export type ProvisioningOutletContext = {
  connector: SsoConnectorWithProviderConfig;
  onCreated: (created: ScimConnectionWithToken) => void;
};

export const useProvisioningOutlet = (): ProvisioningOutletContext => useOutletContext<ProvisioningOutletContext>();
