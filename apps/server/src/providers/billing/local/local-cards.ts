import type { PaymentMethod } from '@portal/contract';
import type { Clock } from '../../../lib/clock';
import { randomSecret, sha256 } from '../../../lib/crypto';
import { AppError } from '../../../lib/errors';
import type { PaymentGateway } from '../gateway';
import { checkCard } from './cards';
import { localId } from './local-ids';
import { localRepository as repo, type CardRow } from './local.repository';

export const toCard = (c: CardRow): PaymentMethod => ({
  id: c.id,
  brand: c.brand,
  last4: c.last4,
  expMonth: c.expMonth,
  expYear: c.expYear,
  isDefault: c.isDefault,
});

/**
 * The local engine's cards: a setup intent whose client secret the local card form confirms (as
 * Stripe's SetupIntent), the stored brand, last 4 and expiry, the default card and detaching.
 */
export function createLocalCards(deps: { clock: Clock }) {
  const { clock } = deps;
  return {
    async createSetupIntent(tx, customerId) {
      const id = localId('seti');
      const clientSecret = `${id}_secret_${randomSecret()}`;
      await repo.insertSetupIntent(tx, { id, customerId, clientSecretHash: sha256(clientSecret), createdAt: clock.now() });
      return clientSecret;
    },

    async listCards(tx, customerId) {
      return (await repo.listCards(tx, customerId)).map(toCard);
    },

    async setDefaultCard(tx, customerId, cardId) {
      await repo.setDefaultCard(tx, customerId, cardId);
    },

    async setSubscriptionCard(_tx, _sub, cardId) {
      return { paymentMethodId: cardId };
    },

    async detachCard(tx, customerId, cardId) {
      await repo.detachCard(tx, customerId, cardId, clock.now());
    },

    async detachAllCards(tx, customerId) {
      await repo.detachAllCards(tx, customerId, clock.now());
    },

    cardForm: {
      /** Validates the card like Stripe's SetupIntent confirmation and stores brand, last 4 and expiry. */
      async confirmSetup(tx, customerId, input) {
        const intent = await repo.lockSetupIntent(tx, customerId, sha256(input.clientSecret));
        if (!intent) throw new AppError('NOT_FOUND', 'This card setup was not found. Start adding the card again.');
        if (intent.status === 'succeeded') {
          throw new AppError('CONFLICT', 'This card setup was already used. Start again to add another card.');
        }
        const now = clock.now();
        const card = checkCard(input, now);
        const existing = await repo.listCards(tx, customerId);
        const row: CardRow = {
          id: localId('pm'),
          customerId,
          brand: card.brand,
          last4: card.last4,
          expMonth: card.expMonth,
          expYear: card.expYear,
          behaviour: card.behaviour,
          isDefault: existing.length === 0,
          createdAt: now,
          detachedAt: null,
        };
        await repo.insertCard(tx, row);
        await repo.completeSetupIntent(tx, intent.id, row.id);
        return toCard(row);
      },
    },
  } satisfies Pick<
    PaymentGateway,
    'createSetupIntent' | 'listCards' | 'setDefaultCard' | 'setSubscriptionCard' | 'detachCard' | 'detachAllCards' | 'cardForm'
  >;
}
