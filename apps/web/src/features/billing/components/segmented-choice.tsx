import type { ReactNode } from 'react';
import classes from './billing.module.css';

export interface SegmentedChoiceItem<T extends string> {
  value: T;
  label: ReactNode;
}

/**
 * Exclusive choices side by side, drawn like the kit's segmented control: the browser's own radio
 * buttons (arrow keys move between them), the chosen one marked by CSS. The kit's control measures
 * its items after each render to slide an indicator under the chosen one, a forced layout in the
 * render that shows the checkout (docs/decisions/128).
 */
export function SegmentedChoice<T extends string>({
  name,
  value,
  onChange,
  data,
  labelledBy,
}: {
  name: string;
  value: T;
  onChange: (value: T) => void;
  data: readonly SegmentedChoiceItem<T>[];
  labelledBy: string;
}) {
  return (
    <div role="radiogroup" aria-labelledby={labelledBy} className={classes.segmented}>
      {data.map((item) => (
        <label key={item.value} className={classes.segment}>
          <input
            className={classes.segmentInput}
            type="radio"
            name={name}
            value={item.value}
            checked={item.value === value}
            onChange={() => onChange(item.value)}
          />
          {item.label}
        </label>
      ))}
    </div>
  );
}
