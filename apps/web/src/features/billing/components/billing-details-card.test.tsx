import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ada, renderRoutes, userState } from '../../../test/render';
import { ADDRESS_NEEDED, ADDRESS_TO_CONFIRM, BillingDetailsCard } from './billing-details-card';
import { fakeFetch } from '@portal/ui/test';

type Answers = Parameters<typeof fakeFetch>[0];

/** `answers` is read at each request: a test may change what the next one answers. */
function renderCard(answers: Answers = {}) {
  answers['GET /api/billing/details'] ??= { status: 200, body: { details: null } };
  const fake = fakeFetch(answers);
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
    expect(screen.queryByText(ADDRESS_NEEDED)).not.toBeInTheDocument();
  });

  it('asks for the address a subscription waits for before Stripe Tax applies, until it is saved', async () => {
    const saved = {
      legalName: null,
      country: 'DE',
      line1: 'Alexanderplatz 1',
      line2: null,
      postalCode: '10178',
      city: 'Berlin',
      region: null,
      taxId: null,
      recipients: [],
      updatedAt: '2026-11-27T00:00:00.000Z',
    };
    const answers: Answers = {
      'GET /api/billing/details': { status: 200, body: { details: null, taxAddressNeeded: true } },
      'PUT /api/billing/details': { status: 200, body: { details: saved } },
    };
    const fake = renderCard(answers);
    expect(await screen.findByRole('note')).toHaveTextContent(ADDRESS_NEEDED);
    const user = userEvent.setup();
    await user.click(screen.getByLabelText(/^Country/, { selector: 'input' }));
    await user.click(await screen.findByRole('option', { name: 'Germany', hidden: true }));
    await user.type(screen.getByLabelText('Address line 1', { selector: 'input' }), 'Alexanderplatz 1');
    await user.type(screen.getByLabelText('Postal code', { selector: 'input' }), '10178');
    await user.type(screen.getByLabelText('City', { selector: 'input' }), 'Berlin');
    // Saved: the details answer no longer asks.
    answers['GET /api/billing/details'] = { status: 200, body: { details: saved } };
    await user.click(screen.getByRole('button', { name: 'Save billing details' }));
    await waitFor(() => expect(puts(fake)).toHaveLength(1));
    expect(JSON.parse(puts(fake)[0]!.body!)).toMatchObject({
      country: 'DE',
      line1: 'Alexanderplatz 1',
      postalCode: '10178',
      city: 'Berlin',
    });
    await waitFor(() => expect(screen.queryByText(ADDRESS_NEEDED)).not.toBeInTheDocument());
  });

  it('asks to confirm details saved before Stripe Tax was on, and saves them as they are', async () => {
    const saved = {
      legalName: 'Muster GmbH',
      country: 'DE',
      line1: 'Alexanderplatz 1',
      line2: null,
      postalCode: '10178',
      city: 'Berlin',
      region: null,
      taxId: null,
      recipients: [],
      updatedAt: '2026-11-20T00:00:00.000Z',
    };
    const answers: Answers = {
      'GET /api/billing/details': { status: 200, body: { details: saved, taxAddressNeeded: true } },
      'PUT /api/billing/details': { status: 200, body: { details: { ...saved, updatedAt: '2026-11-27T00:00:00.000Z' } } },
    };
    const fake = renderCard(answers);
    expect(await screen.findByRole('note')).toHaveTextContent(ADDRESS_TO_CONFIRM);
    expect(screen.getByLabelText('City', { selector: 'input' })).toHaveValue('Berlin');
    answers['GET /api/billing/details'] = { status: 200, body: { details: { ...saved, updatedAt: '2026-11-27T00:00:00.000Z' } } };
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Save billing details' }));
    await waitFor(() => expect(puts(fake)).toHaveLength(1));
    expect(JSON.parse(puts(fake)[0]!.body!)).toMatchObject({ country: 'DE', line1: 'Alexanderplatz 1', city: 'Berlin' });
    await waitFor(() => expect(screen.queryByText(ADDRESS_TO_CONFIRM)).not.toBeInTheDocument());
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
