import { type KeyboardEvent, type ReactNode, useId, useState } from 'react';
import { classNames } from '../../components/class-names.ts';
import inputStyles from '../../components/form/input.module.css';
import { CloseIcon } from '../../components/icons.tsx';
import { Spinner } from '../../components/Spinner/Spinner.tsx';
import { useTranslation } from '../../i18n/react.tsx';
import styles from './Combobox.module.css';

export type ComboboxOption = {
  value: string;
  label: string;
  /** A second line (an id, an email), or a group heading's text before the first option of a group. */
  description?: string;
  group?: string;
};

export type ComboboxProps = {
  label: string;
  placeholder: string;
  /** The chosen option; its label shows in the box while the user is not typing. */
  selected: ComboboxOption | undefined;
  onSelect: (option: ComboboxOption | undefined) => void;
  /** Options for the text typed; the parent filters them (locally or with a server search). */
  options: readonly ComboboxOption[];
  onQueryChange: (query: string) => void;
  isLoading?: boolean;
  /** Shown when nothing matches, or when the search failed. */
  emptyText: string;
  errorText?: string | undefined;
  /** An extra last option made from the typed text ('Use “Foo.Bar”'), for values the list does not know. */
  customOption?: (query: string) => ComboboxOption | undefined;
  className?: string;
};

/**
 * A text box that filters a list of options (the WAI-ARIA combobox pattern): type to narrow, arrows to move, Enter
 * to choose, Escape to close, and a clear button for the current choice.
 */
export function Combobox({
  label,
  placeholder,
  selected,
  onSelect,
  options,
  onQueryChange,
  isLoading = false,
  emptyText,
  errorText,
  customOption,
  className,
}: ComboboxProps) {
  const { t } = useTranslation('audit_logs');
  const listId = useId();
  const [query, setQuery] = useState<string | undefined>(undefined);
  const [isOpen, setOpen] = useState(false);
  const [active, setActive] = useState(0);
  const extra = query ? customOption?.(query) : undefined;
  const shown = extra && !options.some((option) => option.value === extra.value) ? [...options, extra] : options;
  const activeOption = isOpen ? shown[active] : undefined;
  const optionId = (index: number) => `${listId}-${index}`;

  function type(text: string) {
    setQuery(text);
    setActive(0);
    setOpen(true);
    onQueryChange(text);
  }

  function choose(option: ComboboxOption | undefined) {
    onSelect(option);
    setQuery(undefined);
    setOpen(false);
    onQueryChange('');
  }

  function onKeyDown(event: KeyboardEvent<HTMLInputElement>) {
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      if (!isOpen) return setOpen(true);
      const step = event.key === 'ArrowDown' ? 1 : -1;
      setActive((index) => (shown.length ? (index + step + shown.length) % shown.length : 0));
    } else if (event.key === 'Enter' && isOpen && activeOption) {
      event.preventDefault();
      choose(activeOption);
    } else if (event.key === 'Escape' && isOpen) {
      event.preventDefault();
      setOpen(false);
      setQuery(undefined);
    }
  }

  let list: ReactNode = null;
  if (isOpen) {
    list = (
      <div className={styles.popup}>
        <div id={listId} role="listbox" aria-label={label} className={styles.list}>
          {shown.map((option, index) => (
            <div
              key={option.value}
              id={optionId(index)}
              role="option"
              tabIndex={-1}
              aria-selected={index === active}
              data-chosen={option.value === selected?.value || undefined}
              className={styles.option}
              // Chosen on mouse down, before the input's blur closes the list.
              onMouseDown={(event) => {
                event.preventDefault();
                choose(option);
              }}
              onPointerMove={() => setActive(index)}
            >
              {option.group && (index === 0 || shown[index - 1]?.group !== option.group) && (
                <span className={styles.group} aria-hidden="true">
                  {option.group}
                </span>
              )}
              <span className={styles.label}>{option.label}</span>
              {option.description && <span className={styles.description}>{option.description}</span>}
            </div>
          ))}
        </div>
        {shown.length === 0 && (
          <p className={styles.state} role="status">
            {isLoading ? (
              <>
                <Spinner /> {t('filters.searching')}
              </>
            ) : (
              (errorText ?? emptyText)
            )}
          </p>
        )}
      </div>
    );
  }

  return (
    <div className={classNames(styles.root, className)}>
      <input
        type="text"
        role="combobox"
        aria-label={label}
        aria-expanded={isOpen}
        aria-controls={listId}
        aria-autocomplete="list"
        aria-activedescendant={activeOption ? optionId(active) : undefined}
        autoComplete="off"
        spellCheck={false}
        placeholder={placeholder}
        className={classNames(inputStyles.input, styles.input)}
        value={query ?? selected?.label ?? ''}
        onChange={(event) => type(event.target.value)}
        onFocus={() => setOpen(true)}
        onClick={() => setOpen(true)}
        onBlur={() => {
          setOpen(false);
          setQuery(undefined);
        }}
        onKeyDown={onKeyDown}
      />
      {selected && (
        <button
          type="button"
          className={styles.clear}
          aria-label={t('filters.clear', { name: label })}
          onClick={() => choose(undefined)}
        >
          <CloseIcon />
        </button>
      )}
      {list}
    </div>
  );
}
