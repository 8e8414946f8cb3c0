import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { SecretShownOnce } from './secret-shown-once';
import { renderInKit } from './test/render';

const SECRET = 'pat_0123456789abcdefghijklmnopqrstuvwxyzABCDEFG';

describe('SecretShownOnce', () => {
  it('shows the secret under its label, with the warning and how it is used', () => {
    renderInKit(
      <SecretShownOnce secret={SECRET} label="Token “CI”" warning="Copy it now." onDone={() => {}}>
        Send it as a bearer token.
      </SecretShownOnce>,
    );
    // A read-only block named by its visible label, reachable with the keyboard.
    const block = screen.getByRole('textbox', { name: 'Token “CI”' });
    expect(block).toHaveTextContent(SECRET);
    expect(block).toHaveAttribute('aria-readonly', 'true');
    expect(block).toHaveAttribute('tabindex', '0');
    expect(screen.getByRole('alert')).toHaveTextContent('This is the only time you see itCopy it now.');
    expect(screen.getByText('Send it as a bearer token.')).toBeInTheDocument();
  });

  it('takes its own warning title', () => {
    renderInKit(
      <SecretShownOnce
        secret={SECRET}
        label="Signing secret"
        warningTitle="Copy the signing secret now"
        warning="Once."
        onDone={() => {}}
      />,
    );
    expect(screen.getByRole('alert')).toHaveTextContent('Copy the signing secret now');
    expect(screen.getByLabelText('Signing secret', { exact: true })).toHaveTextContent(SECRET);
  });

  it('copies the secret, says so, and Done ends it', async () => {
    const user = userEvent.setup();
    const onDone = vi.fn();
    renderInKit(<SecretShownOnce secret={SECRET} label="Token “CI”" warning="Copy it now." onDone={onDone} />);
    await user.click(screen.getByRole('button', { name: 'Copy' }));
    expect(await navigator.clipboard.readText()).toBe(SECRET);
    expect(await screen.findByRole('button', { name: 'Copied' })).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Done' }));
    expect(onDone).toHaveBeenCalledOnce();
  });

  it('gives each secret its own label id', () => {
    renderInKit(
      <>
        <SecretShownOnce secret="one" label="First" warning="w" onDone={() => {}} />
        <SecretShownOnce secret="two" label="Second" warning="w" onDone={() => {}} />
      </>,
    );
    expect(screen.getByRole('textbox', { name: 'First' })).toHaveTextContent('one');
    expect(screen.getByRole('textbox', { name: 'Second' })).toHaveTextContent('two');
  });
});
