import type { OnboardingBody, UserResponse } from '@portal/contract';
import { api } from '../../lib/api';

export const onboardingApi = api.injectEndpoints({
  endpoints: (builder) => ({
    /** POST /api/users/onboarding: the first name, last name and company; answers the user, onboarded. */
    completeOnboarding: builder.mutation<UserResponse, OnboardingBody>({
      query: (body) => ({ url: '/users/onboarding', method: 'POST', body }),
      invalidatesTags: ['Users'],
    }),
  }),
});

export const { useCompleteOnboardingMutation } = onboardingApi;
