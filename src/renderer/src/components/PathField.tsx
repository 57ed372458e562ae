import { useApp } from '../store.ts';

/**
 * A path field with "Browse…". The desktop app fills it only from the system's dialog, so the
 * engine there takes no path the user did not pick; web mode has no dialog: type or paste the path,
 * or (for folders) browse the folders in the page. Why a path was refused shows under the field.
 */
export function PathField({
  value,
  onChange,
  browse,
  webBrowse,
  label,
  placeholder,
  browsePlaceholder,
  className,
  errorId,
  error,
  browseLabel,
}: {
  value: string;
  onChange: (path: string) => void;
  /** The system dialog; null when cancelled. */
  browse: () => Promise<string | null>;
  /** Web mode: opens the in-page browser (folders only); without it web mode has no Browse…. */
  webBrowse?: () => void;
  label: string;
  /** Shown in web mode, where the path is typed. */
  placeholder: string;
  /** Shown in the desktop app, where the path comes from Browse…. */
  browsePlaceholder: string;
  className?: string;
  /** The id of the element that says why the path was refused. */
  errorId?: string;
  error?: string | null;
  /** The Browse… button's accessible name, where a screen has more than one (default: its text). */
  browseLabel?: string;
}) {
  const desktop = useApp((s) => s.client?.shell === 'electron');
  return (
    <>
      <input
        className={className}
        value={value}
        onChange={(e) => onChange(e.target.value)}
        readOnly={desktop}
        placeholder={desktop ? browsePlaceholder : placeholder}
        aria-label={label}
        aria-invalid={error ? true : undefined}
        aria-describedby={error && errorId ? errorId : undefined}
        spellCheck={false}
      />
      {(desktop || webBrowse) && (
        <button
          type="button"
          className="btn btn--ghost"
          aria-label={browseLabel}
          onClick={async () => {
            if (!desktop) return webBrowse!();
            const picked = await browse();
            if (picked) onChange(picked);
          }}
        >
          Browse…
        </button>
      )}
    </>
  );
}
