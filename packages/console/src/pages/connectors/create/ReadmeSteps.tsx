import styles from '../Connectors.module.css';

/**
 * A factory's readme (numbered steps, one a line, in the factory's own words) as a list; other lines are paragraphs.
 * Shown as text: nothing in it is markup.
 */
export function ReadmeSteps({ readme }: { readme: string }) {
  const lines = readme
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean);
  const steps = lines.filter((line) => /^\d+[.)]\s/.test(line)).map((line) => line.replace(/^\d+[.)]\s+/, ''));
  const other = lines.filter((line) => !/^\d+[.)]\s/.test(line));
  return (
    <div className={styles.cards}>
      {other.map((line) => (
        <p key={line} className={styles.empty}>
          {line}
        </p>
      ))}
      {steps.length > 0 && (
        <ol className={styles.steps} dir="auto">
          {steps.map((step) => (
            <li key={step}>{step}</li>
          ))}
        </ol>
      )}
    </div>
  );
}
