/** The cipher lives in store-rows: both SQL stores seal credentials in the same format. */
export { CredentialCipher } from "@groundwork/store-rows";
