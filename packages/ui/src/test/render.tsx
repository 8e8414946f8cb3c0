import type { ReactElement } from 'react';
import { MantineProvider } from '@mantine/core';
import { render } from '@testing-library/react';
import { parseAccent } from '../accent';
import { makeTheme } from '../theme';

const theme = makeTheme(parseAccent(null));

/** Renders a piece of the kit in its theme, with reduced motion (setup.ts): transitions leave no timer behind. */
export function renderInKit(ui: ReactElement) {
  return render(
    <MantineProvider theme={{ ...theme, respectReducedMotion: true }} env="test">
      {ui}
    </MantineProvider>,
  );
}
