import "server-only";

export {
  activeKeyId,
  ciphertextKeyId,
  decryptSecret,
  DecryptionError,
  encryptSecret,
  GENERATE_KEY_COMMAND,
  getKeyRing,
  KeyConfigurationError,
  keyIds,
  KEYS_ENV_VAR,
  needsReencryption,
  parseKeyRing,
  reencryptSecret,
  secretAad,
} from "./secret-box";
export type { KeyRing } from "./secret-box";
