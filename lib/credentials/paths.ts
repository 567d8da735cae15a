/** The settings page where a person saves and corrects their own EMS API credentials (base URL, key, secret). */
export const CREDENTIALS_SETTINGS_PATH = "/settings/credentials";
