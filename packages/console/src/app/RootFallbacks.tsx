import styles from './RootFallbacks.module.css';
import { RouteErrorBoundary } from './RouteErrorBoundary.tsx';

// It renders without the shell (the shell failed), so it brings its own main landmark.

export function RootErrorBoundary() {
  return (
    <main className={styles.root}>
      <RouteErrorBoundary />
    </main>
  );
}
