import { type KeyboardEvent, useId, useMemo, useState } from 'react';
import { useNavigate, useParams } from 'react-router';
import { classNames } from '../../components/class-names.ts';
import { SearchIcon } from '../../components/icons.tsx';
import { Modal } from '../../components/Modal/Modal.tsx';
import type { EntitySearch } from '../../components/routing/area.ts';
import { useTranslation } from '../../i18n/react.tsx';
import styles from './CommandPalette.module.css';
import { matchCommands, type PaletteCommand } from './commands.ts';
import { useEntitySearch } from './use-entity-search.ts';

type Props = {
  isOpen: boolean;
  onClose: () => void;
  /** The pages (sidebar items) as commands. */
  pages: readonly PaletteCommand[];
  searches: readonly EntitySearch[];
  resolve: (path: string) => string;
};

/** Ctrl/Cmd+K: type to filter, arrows to choose, Enter to go, Esc to close (a combobox with a listbox). */
export function CommandPalette({ isOpen, onClose, ...props }: Props) {
  const { t } = useTranslation();
  return (
    <Modal isOpen={isOpen} onClose={onClose} title={t('palette.title')} size="medium" hasCloseButton={false}>
      <PaletteBody onClose={onClose} {...props} />
    </Modal>
  );
}

function PaletteBody({ onClose, pages, searches, resolve }: Omit<Props, 'isOpen'>) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { tenantId } = useParams();
  const [query, setQuery] = useState('');
  const [active, setActive] = useState(0);
  const listId = useId();
  const hintId = useId();
  const entities = useEntitySearch(searches, query, resolve, tenantId);
  const results = useMemo(() => [...matchCommands(pages, query), ...entities.results], [pages, query, entities]);
  const activeIndex = Math.min(active, results.length - 1);
  const optionId = (index: number) => `${listId}-${index}`;

  function go(command: PaletteCommand | undefined) {
    if (!command) return;
    onClose();
    navigate(command.to);
  }

  function onKeyDown(event: KeyboardEvent<HTMLInputElement>) {
    const count = results.length;
    if (event.key === 'ArrowDown' && count > 0) setActive((activeIndex + 1) % count);
    else if (event.key === 'ArrowUp' && count > 0) setActive((activeIndex - 1 + count) % count);
    else if (event.key === 'Home' && count > 0) setActive(0);
    else if (event.key === 'End' && count > 0) setActive(count - 1);
    else if (event.key === 'Enter') go(results[activeIndex]);
    else return;
    event.preventDefault();
  }

  return (
    <div className={styles.palette}>
      <div className={styles.inputRow}>
        <SearchIcon className={styles.searchIcon} />
        <input
          className={styles.input}
          role="combobox"
          aria-label={t('palette.label')}
          aria-expanded={results.length > 0}
          aria-controls={listId}
          aria-autocomplete="list"
          aria-activedescendant={results.length > 0 ? optionId(activeIndex) : undefined}
          aria-describedby={hintId}
          placeholder={t('palette.placeholder')}
          value={query}
          onChange={(event) => {
            setQuery(event.target.value);
            setActive(0);
          }}
          onKeyDown={onKeyDown}
          autoComplete="off"
          spellCheck={false}
        />
      </div>
      <div id={listId} role="listbox" aria-label={t('palette.results')} className={styles.list}>
        {results.map((command, index) => (
          // biome-ignore lint/a11y/useKeyWithClickEvents: the combobox input owns the keyboard (aria-activedescendant).
          <div
            key={command.id}
            id={optionId(index)}
            role="option"
            tabIndex={-1}
            aria-selected={index === activeIndex}
            className={classNames(styles.option, index === activeIndex && styles.active)}
            onClick={() => go(command)}
            onPointerMove={() => setActive(index)}
          >
            <span>{command.label}</span>
            <span className={styles.group}>{command.group}</span>
          </div>
        ))}
      </div>
      {results.length === 0 && (
        <p className={styles.empty} role="status">
          {entities.isSearching ? t('palette.searching') : t('palette.no_results', { query: query.trim() })}
        </p>
      )}
      <p id={hintId} className={styles.hint}>
        {t('palette.hint')}
      </p>
    </div>
  );
}
