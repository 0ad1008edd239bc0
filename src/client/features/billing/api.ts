// The hospital's subscription (docs/decisions.md): the trial or billing status, and Stripe Checkout.
import { useMutation, useQuery } from '@tanstack/react-query';
import type { BillingStatus } from '../../../shared/providers';
import { apiJson } from '../../api/request';
import { BILLING_STATUS_KEY } from './keys';

export const useBillingStatus = () => useQuery<BillingStatus>({ queryKey: BILLING_STATUS_KEY });

/** Opens a Stripe Checkout session; the answer is the page to go to. */
export const useCheckout = () =>
  useMutation({ mutationFn: () => apiJson<{ url: string }>('POST', '/api/billing/checkout') });
