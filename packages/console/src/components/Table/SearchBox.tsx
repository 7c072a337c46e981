import { useState } from 'react';
import { useTranslation } from '../../i18n/react.tsx';
import inputStyles from '../form/input.module.css';
import { SearchIcon } from '../icons.tsx';
import styles from './SearchBox.module.css';
import { useDebouncedCallback } from './use-debounced-callback.ts';

/** Long enough to skip a request per keystroke, short enough to feel live. */
export const searchDebounceMs = 300;

export type SearchBoxProps = {
  onSearch: (text: string) => void;
  defaultValue?: string;
  placeholder?: string;
  /** Its accessible name, where a page has more than one search ('Search users'); 'Search' otherwise. */
  label?: string;
};

/** Searches as the user types (debounced); Enter searches at once. */
export function SearchBox({ onSearch, defaultValue = '', placeholder, label }: SearchBoxProps) {
  const { t } = useTranslation('components');
  const [text, setText] = useState(defaultValue);
  // The URL can change the search under the box (Back, a link): the box then shows what the rows are searched by.
  const [lastDefault, setLastDefault] = useState(defaultValue);
  if (defaultValue !== lastDefault) {
    setLastDefault(defaultValue);
    if (defaultValue !== text.trim()) setText(defaultValue);
  }
  const search = useDebouncedCallback((value: string) => onSearch(value.trim()), searchDebounceMs);
  return (
    <div className={styles.searchBox}>
      <SearchIcon className={styles.icon} />
      <input
        type="search"
        dir="auto"
        className={inputStyles.input}
        value={text}
        placeholder={placeholder ?? t('table.search')}
        aria-label={label ?? t('table.search')}
        onChange={(event) => {
          setText(event.target.value);
          search.schedule(event.target.value);
        }}
        onKeyDown={(event) => {
          if (event.key === 'Enter') {
            event.preventDefault();
            search.flush(text);
          }
        }}
      />
    </div>
  );
}
