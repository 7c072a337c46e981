import { Outlet } from 'react-router';
import { AppLoading } from '../../components/AppLoading/AppLoading.tsx';
import { TenantsProvider, useTenants, useTenantsLoadError } from '../tenants/TenantsProvider.tsx';

function TenantsGate() {
  const { isLoaded } = useTenants();
  const error = useTenantsLoadError();
  // The route error boundary shows the error page (retry clears the tokens).
  if (error) throw error;
  return isLoaded ? <Outlet /> : <AppLoading />;
}

/** Spec §2.4: every signed-in cloud page waits, on the logo loading screen, for the tenant list. */
export function CloudRoot() {
  return (
    <TenantsProvider>
      <TenantsGate />
    </TenantsProvider>
  );
}
