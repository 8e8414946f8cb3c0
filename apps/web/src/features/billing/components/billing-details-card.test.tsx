import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ada, renderRoutes, userState } from '../../../test/render';
import { BillingDetailsCard } from './billing-details-card';
import { fakeFetch } from '@portal/ui/test';

type Answers = Parameters<typeof fakeFetch>[0];

function renderCard(answers: Answers = {}) {
  const fake = fakeFetch({ 'GET /api/billing/details': { status: 200, body: { details: null } }, ...answers });
  vi.stubGlobal('fetch', fake.fn);
  renderRoutes([{ path: '/app/billing', element: <BillingDetailsCard /> }], { path: '/app/billing', preloaded: userState(ada) });
  return fake;
}

const puts = (fake: ReturnType<typeof fakeFetch>) => fake.calls.filter((c) => c.method === 'PUT');

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('billing details form', () => {
  it('asks for the country and sends nothing without it', async () => {
    const fake = renderCard();
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Save billing details' }));
    expect(await screen.findByText('Choose the country of your billing address')).toBeInTheDocument();
    expect(puts(fake)).toHaveLength(0);
  });

  it('names the expected format of a bad VAT number, then saves a good one', async () => {
    const saved = {
      legalName: 'Muster GmbH',
      country: 'DE',
      line1: null,
      line2: null,
      postalCode: null,
      city: null,
      region: null,
      taxId: { type: 'eu_vat', value: 'DE123456789', status: 'invalid', checkedAt: '2026-11-27T00:00:00.000Z' },
      recipients: [],
      updatedAt: '2026-11-27T00:00:00.000Z',
    };
    const fake = renderCard({ 'PUT /api/billing/details': { status: 200, body: { details: saved } } });
    const user = userEvent.setup();
    await user.click(await screen.findByLabelText(/^Country/, { selector: 'input' }));
    await user.click(await screen.findByRole('option', { name: 'Germany', hidden: true }));
    await user.type(screen.getByLabelText('Company name', { selector: 'input' }), 'Muster GmbH');
    await user.click(screen.getByLabelText('Tax ID type', { selector: 'input' }));
    await user.click(await screen.findByRole('option', { name: 'EU VAT number', hidden: true }));
    await user.type(screen.getByLabelText('Tax ID', { selector: 'input' }), 'DE12345');
    await user.click(screen.getByRole('button', { name: 'Save billing details' }));
    expect(
      await screen.findByText('This is not a valid VAT number format: expected DE followed by 9 digits.'),
    ).toBeInTheDocument();
    expect(puts(fake)).toHaveLength(0);

    await user.clear(screen.getByLabelText('Tax ID', { selector: 'input' }));
    await user.type(screen.getByLabelText('Tax ID', { selector: 'input' }), 'DE123456789');
    await user.click(screen.getByRole('button', { name: 'Save billing details' }));
    await waitFor(() => expect(puts(fake)).toHaveLength(1));
    expect(JSON.parse(puts(fake)[0]!.body!)).toEqual({
      legalName: 'Muster GmbH',
      country: 'DE',
      line1: null,
      line2: null,
      postalCode: null,
      city: null,
      region: null,
      taxId: { type: 'eu_vat', value: 'DE123456789' },
      recipients: [],
    });
  });

  it('shows a VAT number VIES found invalid', async () => {
    renderCard({
      'GET /api/billing/details': {
        status: 200,
        body: {
          details: {
            legalName: null,
            country: 'FR',
            line1: null,
            line2: null,
            postalCode: null,
            city: null,
            region: null,
            taxId: { type: 'eu_vat', value: 'FR99999999999', status: 'invalid', checkedAt: '2026-11-27T00:00:00.000Z' },
            recipients: [],
            updatedAt: '2026-11-27T00:00:00.000Z',
          },
        },
      },
    });
    expect(await screen.findByText('Not valid')).toBeInTheDocument();
    expect(screen.getByText(/FR99999999999: VIES does not know this VAT number/)).toBeInTheDocument();
  });
});
