import { useApp } from '../store.ts';

/**
 * A path field with "Browse…". The desktop app fills it only from the system's dialog, so the
 * engine there takes no path the user did not pick; web mode has no dialog: type or paste the path.
 */
export function PathField({
  value,
  onChange,
  browse,
  label,
  placeholder,
  browsePlaceholder,
  className,
}: {
  value: string;
  onChange: (path: string) => void;
  /** The system dialog; null when cancelled. */
  browse: () => Promise<string | null>;
  label: string;
  /** Shown in web mode, where the path is typed. */
  placeholder: string;
  /** Shown in the desktop app, where the path comes from Browse…. */
  browsePlaceholder: string;
  className?: string;
}) {
  const desktop = useApp((s) => s.client?.shell === 'electron');
  return (
    <>
      <input className={className} value={value} onChange={(e) => onChange(e.target.value)} readOnly={desktop} placeholder={desktop ? browsePlaceholder : placeholder} aria-label={label} spellCheck={false} />
      {desktop && (
        <button
          type="button"
          className="btn btn--ghost"
          onClick={async () => {
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
