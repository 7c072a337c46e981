import { Loading } from '../components/Loading.tsx';
import styles from './RootFallbacks.module.css';
import { RouteErrorBoundary } from './RouteErrorBoundary.tsx';

// These render without the shell (it is loading or it failed), so they bring their own main landmark.

export function AppLoading() {
  return (
    <main className={styles.root}>
      <Loading />
    </main>
  );
}

export function RootErrorBoundary() {
  return (
    <main className={styles.root}>
      <RouteErrorBoundary />
    </main>
  );
}
