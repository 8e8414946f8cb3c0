/**
 * A stand-in for Stripe.js (https://js.stripe.com/<release>/stripe.js) for tests: Stripe's script
 * cannot be loaded here, so component tests install it on jsdom's window and browser tests serve
 * its source (`(${installStripeJsStandIn})(window)`) in place of Stripe's script. It implements
 * the part of Stripe.js the portal uses, with Stripe's wire format: `Stripe(key)`, `elements({
 * clientSecret })` with a Payment Element (plain labelled fields where Stripe shows its frame),
 * `elements.submit()`, `confirmSetup` and `confirmCardPayment`, which POST to
 * https://api.stripe.com/v1/... with the publishable key in the form body, as Stripe.js does.
 *
 * It must stay self-contained (no imports, no outer variables): browser tests send its source.
 */
export function installStripeJsStandIn(win: Window & typeof globalThis) {
  type Listener = (event: unknown) => void;
  type Fields = { number: HTMLInputElement; expiry: HTMLInputElement; cvc: HTMLInputElement };
  type ApiError = { type?: string; code?: string; message?: string };
  const doc = win.document;

  function field(container: HTMLElement, label: string, name: string, autocomplete: string, placeholder: string) {
    const wrap = doc.createElement('label');
    wrap.style.cssText = 'display:flex;flex-direction:column;gap:4px;font:14px sans-serif;margin-bottom:8px';
    wrap.textContent = label;
    const input = doc.createElement('input');
    input.name = name;
    input.setAttribute('autocomplete', autocomplete);
    input.inputMode = 'numeric';
    input.placeholder = placeholder;
    input.style.cssText = 'padding:8px;border:1px solid #ccc;border-radius:6px;font:16px sans-serif';
    wrap.appendChild(input);
    container.appendChild(wrap);
    return input;
  }

  function incomplete(f: Fields): string | null {
    const digits = f.number.value.replace(/\D/g, '');
    if (digits.length < 13) return 'Your card number is incomplete.';
    if (!/^\d{2} ?\/ ?\d{2}$/.test(f.expiry.value.trim())) return "Your card's expiration date is incomplete.";
    if (!/^\d{3,4}$/.test(f.cvc.value.trim())) return "Your card's security code is incomplete.";
    return null;
  }

  function Stripe(key: string) {
    async function post(
      path: string,
      params: Record<string, string>,
    ): Promise<{ ok?: Record<string, unknown>; error?: ApiError }> {
      const body = new URLSearchParams({ key, ...params });
      const res = await win.fetch(`https://api.stripe.com${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: body.toString(),
      });
      const json = (await res.json()) as Record<string, unknown> & { error?: ApiError };
      return res.ok ? { ok: json } : { error: json.error ?? { message: 'An unexpected error occurred.' } };
    }
    const idOf = (clientSecret: string) => clientSecret.split('_secret_')[0] ?? '';

    function elements(options: { clientSecret?: string } = {}) {
      let fields: Fields | null = null;
      const group = {
        _clientSecret: options.clientSecret ?? '',
        update() {},
        getElement: () => null,
        create(_type: string) {
          const listeners = new Map<string, Set<Listener>>();
          const emit = (name: string, event: unknown) => listeners.get(name)?.forEach((l) => l(event));
          let root: HTMLElement | null = null;
          return {
            on(name: string, l: Listener) {
              if (!listeners.has(name)) listeners.set(name, new Set());
              listeners.get(name)!.add(l);
              return this;
            },
            off(name: string, l: Listener) {
              listeners.get(name)?.delete(l);
              return this;
            },
            update() {},
            focus() {
              fields?.number.focus();
            },
            mount(node: HTMLElement) {
              root = doc.createElement('div');
              root.setAttribute('data-stripe-stand-in', 'payment');
              fields = {
                number: field(root, 'Card number', 'number', 'cc-number', '1234 1234 1234 1234'),
                expiry: field(root, 'Expiration date', 'expiry', 'cc-exp', 'MM / YY'),
                cvc: field(root, 'Security code', 'cvc', 'cc-csc', 'CVC'),
              };
              const f = fields;
              for (const input of [f.number, f.expiry, f.cvc]) {
                input.addEventListener('input', () => {
                  const empty = !f.number.value && !f.expiry.value && !f.cvc.value;
                  emit('change', { elementType: 'payment', empty, complete: incomplete(f) === null, value: { type: 'card' } });
                });
                input.addEventListener('focus', () => emit('focus', { elementType: 'payment' }));
                input.addEventListener('blur', () => emit('blur', { elementType: 'payment' }));
              }
              node.appendChild(root);
              win.setTimeout(() => emit('ready', { elementType: 'payment' }), 0);
            },
            unmount() {
              root?.remove();
            },
            destroy() {
              root?.remove();
              fields = null;
            },
          };
        },
        async submit() {
          const problem = fields ? incomplete(fields) : 'The Payment Element is not mounted.';
          return problem ? { error: { type: 'validation_error', message: problem } } : {};
        },
        _fields: () => fields,
      };
      return group;
    }

    return {
      elements,
      createToken: async () => ({ error: { message: 'createToken is not part of the stand-in' } }),
      createPaymentMethod: async () => ({ error: { message: 'createPaymentMethod is not part of the stand-in' } }),
      registerAppInfo() {},
      _registerWrapper() {},
      async confirmSetup(args: {
        elements: ReturnType<typeof elements>;
        redirect?: string;
        confirmParams?: { return_url?: string };
      }) {
        const f = args.elements._fields();
        const problem = f ? incomplete(f) : 'The Payment Element is not mounted.';
        if (!f || problem) return { error: { type: 'validation_error', message: problem } };
        const [mm = '', yy = ''] = f.expiry.value.split('/').map((s) => s.trim());
        const secret = args.elements._clientSecret;
        const res = await post(`/v1/setup_intents/${idOf(secret)}/confirm`, {
          client_secret: secret,
          'payment_method_data[type]': 'card',
          'payment_method_data[card][number]': f.number.value.replace(/\D/g, ''),
          'payment_method_data[card][exp_month]': String(Number(mm)),
          'payment_method_data[card][exp_year]': String(2000 + Number(yy)),
          'payment_method_data[card][cvc]': f.cvc.value.trim(),
          ...(args.confirmParams?.return_url ? { return_url: args.confirmParams.return_url } : {}),
        });
        return res.error ? { error: res.error } : { setupIntent: res.ok };
      },
      async confirmCardPayment(clientSecret: string, data: { payment_method?: string } = {}) {
        const res = await post(`/v1/payment_intents/${idOf(clientSecret)}/confirm`, {
          client_secret: clientSecret,
          ...(data.payment_method ? { payment_method: data.payment_method } : {}),
        });
        return res.error ? { error: res.error } : { paymentIntent: res.ok };
      },
    };
  }
  Stripe.version = 'endive';
  (win as unknown as { Stripe: typeof Stripe }).Stripe = Stripe;
}
