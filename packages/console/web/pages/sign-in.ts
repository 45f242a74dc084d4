/** Sign-in (PLATFORM.md §16): the key is checked with GET /v1/me before it is kept. */
import { ApiError, api, storeKey } from "../api.js";
import { alertBox, h, heading, replace } from "../dom.js";

export function renderSignIn(main: HTMLElement, signedIn: () => void): void {
  const input = h("input", {
    id: "api-key",
    name: "apiKey",
    type: "text",
    class: "secret",
    autocomplete: "off",
    autocapitalize: "off",
    spellcheck: "false",
    required: true,
  });
  const feedback = h("div", { class: "feedback" });
  const button = h("button", { type: "submit" }, "Sign in");
  const form = h(
    "form",
    { class: "card sign-in" },
    h("label", { for: "api-key" }, "API key"),
    input,
    h(
      "p",
      { class: "hint" },
      "The key stays in this tab only (session storage) and is sent to this server's /v1 API.",
    ),
    button,
    feedback,
  );
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const key = input.value.trim();
    replace(feedback);
    button.disabled = true;
    try {
      await api("GET", "/v1/me", undefined, key);
      storeKey(key);
      signedIn();
    } catch (error) {
      const text =
        error instanceof ApiError
          ? error.status === 401
            ? `401: invalid API key (${error.message})`
            : error.describe()
          : `Sign-in failed: ${String(error)}`;
      replace(feedback, alertBox(text));
      input.focus();
    } finally {
      button.disabled = false;
    }
  });
  replace(main, h("div", { class: "sign-in-page" }, heading("Sign in to Groundwork"), form));
  input.focus();
}
