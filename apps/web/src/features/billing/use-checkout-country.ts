import { useState } from 'react';
import { skipToken } from '@reduxjs/toolkit/query/react';
import { countryOptions } from '@portal/contract';
import { errorMessage } from '@portal/ui';
import { useGetBillingDetailsQuery, useUpdateBillingDetailsMutation } from './api';

/**
 * A seller that charges VAT: the tax depends on the buyer's country, asked before the first
 * checkout (when the customer has no billing details yet) and saved as their billing details.
 */
export function useCheckoutCountry(taxed: boolean) {
  const detailsQuery = useGetBillingDetailsQuery(taxed ? undefined : skipToken);
  const needsCountry = taxed && detailsQuery.data?.details === null;
  const [country, setCountry] = useState<string | null>(null);
  const [countryError, setCountryError] = useState<string | null>(null);
  const [saveDetails, { isLoading: savingDetails }] = useUpdateBillingDetailsMutation();
  const countries = taxed ? countryOptions() : [];

  /** Saves the chosen country when one is needed: false (with the field's error) when checkout must wait. */
  const saveCountry = async (): Promise<boolean> => {
    if (!needsCountry) return true;
    if (!country) {
      setCountryError('Choose the country of your billing address');
      return false;
    }
    const saved = await saveDetails({ country });
    if ('error' in saved) {
      setCountryError(errorMessage(saved.error));
      return false;
    }
    setCountryError(null);
    return true;
  };

  const chooseCountry = (v: string | null) => {
    setCountry(v);
    setCountryError(null);
  };

  return {
    /** The customer's billing details are known: the checkout's tax can be previewed. */
    hasDetails: Boolean(detailsQuery.data?.details),
    needsCountry,
    country,
    countryError,
    countries,
    chooseCountry,
    saveCountry,
    savingDetails,
  };
}
