/// <reference types="vite/client" />

interface ImportMetaEnv {
  readonly VITE_SUPPORT_EMAIL?: string;
  readonly VITE_SOCIAL_PROFILE_URL?: string;
  readonly VITE_SOCIAL_PAGE_URL?: string;
}
