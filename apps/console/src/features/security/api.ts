import {
  consolePath,
  type AddFactorResponse,
  type AddPasskeyBody,
  type AddTotpBody,
  type CheckCodeBody,
  type CheckPasskeyBody,
  type ConsoleMe,
  type StaffFactorList,
  type TotpEnrollment,
} from '@portal/contract';
import type { PublicKeyCredentialCreationOptionsJSON, PublicKeyCredentialRequestOptionsJSON } from '@simplewebauthn/browser';
import { api } from '../../lib/api';

/**
 * The signed-in member's own second factors (Security) and the check after the e-mailed link.
 * The WebAuthn options travel as the server made them, straight to @simplewebauthn/browser.
 */
export const securityApi = api.injectEndpoints({
  endpoints: (build) => ({
    listFactors: build.query<StaffFactorList, void>({
      query: () => consolePath('listFactors'),
      providesTags: ['Factors'],
    }),
    startPasskeyRegistration: build.mutation<PublicKeyCredentialCreationOptionsJSON, void>({
      query: () => ({ url: consolePath('startPasskeyRegistration'), method: 'POST' }),
    }),
    addPasskey: build.mutation<AddFactorResponse, AddPasskeyBody>({
      query: (body) => ({ url: consolePath('addPasskey'), method: 'POST', body }),
      invalidatesTags: ['Factors'],
    }),
    startTotpEnrollment: build.mutation<TotpEnrollment, void>({
      query: () => ({ url: consolePath('startTotpEnrollment'), method: 'POST' }),
    }),
    addTotp: build.mutation<AddFactorResponse, AddTotpBody>({
      query: (body) => ({ url: consolePath('addTotp'), method: 'POST', body }),
      invalidatesTags: ['Factors'],
    }),
    removeFactor: build.mutation<void, string>({
      query: (factorId) => ({ url: consolePath('removeFactor', { factorId }), method: 'DELETE' }),
      invalidatesTags: ['Factors'],
    }),
    regenerateRecoveryCodes: build.mutation<{ recoveryCodes: string[] }, void>({
      query: () => ({ url: consolePath('regenerateRecoveryCodes'), method: 'POST' }),
      invalidatesTags: ['Factors'],
    }),
    startPasskeyCheck: build.mutation<PublicKeyCredentialRequestOptionsJSON, void>({
      query: () => ({ url: consolePath('startPasskeyCheck'), method: 'POST' }),
    }),
    checkPasskey: build.mutation<ConsoleMe, CheckPasskeyBody>({
      query: (body) => ({ url: consolePath('checkPasskey'), method: 'POST', body }),
    }),
    checkCode: build.mutation<ConsoleMe, CheckCodeBody>({
      query: (body) => ({ url: consolePath('checkCode'), method: 'POST', body }),
    }),
  }),
});

export const {
  useListFactorsQuery,
  useStartPasskeyRegistrationMutation,
  useAddPasskeyMutation,
  useStartTotpEnrollmentMutation,
  useAddTotpMutation,
  useRemoveFactorMutation,
  useRegenerateRecoveryCodesMutation,
  useStartPasskeyCheckMutation,
  useCheckPasskeyMutation,
  useCheckCodeMutation,
} = securityApi;
