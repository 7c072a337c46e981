import type { HookEvent } from '@gatehouse/schemas';
import { Fragment } from 'react';
import { type Control, useController } from 'react-hook-form';
import { ErrorLine } from '../../../components/form/ErrorLine.tsx';
import { useTranslation } from '../../../i18n/react.tsx';
import type { HookForm } from '../hook-form.ts';
import styles from '../Webhooks.module.css';
import { eventActionKey, eventGroups } from './events.ts';

/** The events of a webhook as checkboxes in groups (spec §9), each with its API name for developers. */
export function EventsPicker({ control }: { control: Control<HookForm> }) {
  const { t } = useTranslation('webhooks');
  const { field, fieldState } = useController({ control, name: 'events' });
  const picked = new Set(field.value);
  const errorId = 'webhook-events-error';

  function toggle(event: HookEvent, isOn: boolean) {
    const next = new Set(picked);
    if (isOn) next.add(event);
    else next.delete(event);
    // The order of the spec's list, whatever order they were ticked in.
    field.onChange(eventGroups.flatMap((group) => group.events).filter((value) => next.has(value)));
  }

  return (
    <fieldset
      className={styles.events}
      aria-describedby={fieldState.error ? errorId : undefined}
      aria-invalid={fieldState.error ? true : undefined}
      data-testid="events"
    >
      <legend className={styles.legend}>
        {t('fields.events')}
        <span className={styles.required} aria-hidden="true">
          *
        </span>
      </legend>
      <p className={styles.hint}>{t('hints.events')}</p>
      <div className={styles.eventGroups}>
        {eventGroups.map((group) => (
          <fieldset key={group.key} className={styles.eventGroup}>
            <legend className={styles.groupTitle}>{t(`event_groups.${group.key}`)}</legend>
            {group.events.map((event, index) => (
              <label key={event} className={styles.eventOption}>
                <input
                  type="checkbox"
                  className={styles.checkbox}
                  checked={picked.has(event)}
                  onChange={(change) => toggle(event, change.target.checked)}
                  onBlur={field.onBlur}
                  ref={group.key === 'interaction' && index === 0 ? field.ref : undefined}
                />
                <span className={styles.eventText}>
                  <span>{t(`events.${eventActionKey(event)}`)}</span>
                  <code className={styles.eventCode} dir="ltr">
                    <BreakableName name={event} />
                  </code>
                </span>
              </label>
            ))}
          </fieldset>
        ))}
      </div>
      <ErrorLine id={errorId} className={styles.error} testId="events-error" error={fieldState.error?.message} />
    </fieldset>
  );
}

/** 'OrganizationRole.Scopes.Updated' may wrap after its dots rather than inside a word. */
function BreakableName({ name }: { name: string }) {
  return name.split('.').map((part, index) => (
    // biome-ignore lint/suspicious/noArrayIndexKey: the parts of one fixed name, in order.
    <Fragment key={index}>
      {index > 0 && (
        <>
          .<wbr />
        </>
      )}
      {part}
    </Fragment>
  ));
}
