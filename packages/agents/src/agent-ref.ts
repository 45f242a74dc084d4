/**
 * Agent references in the model string: `agent/<name>[@<label|version>][#<model>]`.
 * `#` and `@` cannot occur in agent names, so the first `#` starts the model switch
 * and the first `@` before it starts the version or label.
 */
import { invalidRequest } from "@groundwork/core";

export interface AgentRef {
  /** The model string exactly as sent. */
  raw: string;
  name: string;
  /** A label name, a version number (digits) or a version id; undefined → latest active version. */
  selector?: string;
  /** The `#<model>` switch. */
  model?: string;
}

export function isAgentRef(model: string): boolean {
  return model.trim().startsWith("agent/");
}

export function parseAgentRef(model: string): AgentRef {
  const raw = model.trim();
  if (!raw.startsWith("agent/")) {
    throw invalidRequest(`"${model}" is not an agent reference (agent/<name>[@label|@version][#model])`, {
      param: "model",
    });
  }
  const rest = raw.slice("agent/".length);
  const hash = rest.indexOf("#");
  const head = hash === -1 ? rest : rest.slice(0, hash);
  const switchTo = hash === -1 ? undefined : rest.slice(hash + 1);
  const at = head.indexOf("@");
  const name = at === -1 ? head : head.slice(0, at);
  const selector = at === -1 ? undefined : head.slice(at + 1);
  if (name === "") throw invalidRequest("The agent reference has no agent name", { param: "model" });
  if (selector !== undefined && selector.trim() === "") {
    throw invalidRequest("The agent reference has an empty @label or @version", { param: "model" });
  }
  if (switchTo !== undefined && switchTo.trim() === "") {
    throw invalidRequest("The agent reference has an empty #model switch", { param: "model" });
  }
  return {
    raw,
    name,
    ...(selector === undefined ? {} : { selector }),
    ...(switchTo === undefined ? {} : { model: switchTo }),
  };
}
