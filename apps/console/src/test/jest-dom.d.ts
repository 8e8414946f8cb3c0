// The jest-dom matchers the portal's test setup (../web/src/test/setup.ts) installs, for the type checker.
/// <reference types="@testing-library/jest-dom/vitest" />
