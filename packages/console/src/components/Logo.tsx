/** The product mark (the favicon's drawing); decorative, as it always sits beside the product name. */
export function LogoMark({ className }: { className?: string }) {
  return (
    <svg className={className} viewBox="0 0 32 32" width="32" height="32" aria-hidden="true" focusable="false">
      <rect width="32" height="32" rx="7" fill="#6139F6" />
      <path d="M9 26V13l7-6 7 6v13h-5v-7h-4v7z" fill="#fff" />
    </svg>
  );
}
