import { useId, useState } from 'react';

/** The wiring of a disclosure: a native button that shows and hides a panel. */
export interface Disclosure {
  open: boolean;
  toggle(): void;
  /** Spread on the `<button type="button">`. */
  buttonProps: { 'aria-expanded': boolean; 'aria-controls': string; onClick(): void };
  /** Spread on the panel. `hidden` removes it from view and from the accessibility tree. */
  panelProps: { id: string; hidden: boolean };
}

/** State and ARIA attributes for a button that shows and hides a panel. */
export function useDisclosure(defaultOpen = false): Disclosure {
  const panelId = useId();
  const [open, setOpen] = useState(defaultOpen);
  const toggle = () => setOpen((value) => !value);
  return {
    open,
    toggle,
    buttonProps: { 'aria-expanded': open, 'aria-controls': panelId, onClick: toggle },
    panelProps: { id: panelId, hidden: !open },
  };
}
