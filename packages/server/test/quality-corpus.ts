/**
 * A small labelled corpus for the retrieval-quality test: passages of a fictional
 * company handbook and queries with the passages known to answer them. Queries
 * mix exact rare terms (the keyword leg's strength), inflected or partial word
 * forms (character n-grams of the hash embedding help there) and paraphrases.
 */
export const PASSAGES: Record<string, string> = {
  "vpn-setup":
    "To connect from home, install the WireGuard client and import the profile from the IT portal. The tunnel must be active before opening the intranet.",
  "vpn-trouble":
    "If the tunnel drops every few minutes, switch the WireGuard MTU to 1380 and restart the client; persistent disconnects go to the service desk.",
  "password-policy":
    "Passwords need at least fourteen characters and are rotated yearly. Reusing any of the last five passwords is blocked.",
  mfa: "Two-factor authentication uses the authenticator app; hardware keys are issued to administrators and finance staff.",
  "laptop-refresh":
    "Laptops are replaced every four years. Request an early refresh through the asset form when a device fails repeatedly.",
  printer:
    "The third-floor printer accepts badge release jobs. Colour printing is limited to marketing and design teams.",
  "holiday-allowance":
    "Full-time employees receive twenty-eight days of paid holiday per calendar year, including public holidays.",
  "holiday-carry":
    "Up to five unused holiday days may be carried into the next year; they expire at the end of March.",
  "sick-leave":
    "Report sickness to your manager before ten o'clock. A doctor's note is required from the fourth consecutive day of absence.",
  "parental-leave":
    "Parents may take up to twenty-six weeks of parental leave with full pay for the first sixteen weeks.",
  "remote-work":
    "Staff may work remotely up to three days a week; team anchor days are agreed with the department lead.",
  "expense-claims":
    "Submit expense claims within thirty days with itemised receipts attached. Claims above 500 euros need director approval.",
  mileage:
    "Private car journeys on company business are reimbursed at 0.30 euros per kilometre, logged in the mileage sheet.",
  "travel-booking":
    "Book flights and hotels through the travel agency portal; economy class applies to flights under six hours.",
  "per-diem":
    "Daily allowances for meals abroad follow the national per diem table, reduced when breakfast is included.",
  "fire-drill":
    "Fire drills take place twice a year. Leave by the nearest stairwell and gather at assembly point B in the car park.",
  "first-aid":
    "First-aid kits hang beside each kitchen. Trained first aiders are listed on the notice board at reception.",
  forklift:
    "Only certified operators may drive the forklift trucks in the warehouse; certification is renewed every three years.",
  ppe: "Safety boots and high-visibility vests are mandatory on the loading dock at all times.",
  visitor: "Visitors sign in at reception, wear a visitor badge and must be accompanied in production areas.",
  onboarding:
    "New starters receive their laptop and badge on day one and complete the security awareness course within two weeks.",
  offboarding:
    "Leavers return equipment on their last day; accounts are disabled at midnight by the identity team.",
  "payroll-date":
    "Salaries are paid on the twenty-fifth of each month, or the previous working day when it falls on a weekend.",
  payslip: "Payslips are published in the HR self-service portal; paper copies are no longer posted.",
  pension:
    "The company matches pension contributions up to six percent of base salary after the probation period.",
  "bike-scheme":
    "The cycle-to-work scheme lets employees lease a bicycle through salary sacrifice for up to 1,500 euros.",
  parking:
    "Parking permits are allocated by lottery each quarter; electric vehicles may use the charging bays for four hours.",
  canteen:
    "The canteen serves lunch from twelve to two; vegetarian and vegan options are available every day.",
  "meeting-rooms":
    "Meeting rooms are booked in the calendar; bookings not claimed within fifteen minutes are released automatically.",
  "data-retention":
    "Customer records are retained for seven years after the contract ends and then deleted or anonymised.",
  "gdpr-request":
    "Requests from individuals to access their personal data are forwarded to the privacy officer within two working days.",
  "incident-report":
    "Report security incidents such as phishing emails or lost devices immediately to the security hotline.",
  "code-review":
    "Every change to production code needs an approving review from a second engineer before merging.",
  "deploy-window":
    "Production deployments happen Tuesday to Thursday; Friday releases require an exception from the change board.",
  "on-call":
    "Engineers on call receive a weekly allowance and must acknowledge pages within fifteen minutes.",
  "training-budget":
    "Each employee has an annual training budget of 1,200 euros for courses, conferences and certifications.",
};

/**
 * Near misses: coherent passages that share a query's words but do not answer
 * it (hard negatives), so each leg is tested on telling topic from vocabulary.
 * None of them is relevant to any query.
 */
export const NEAR_MISSES: Record<string, string> = {
  "near-wireguard-licence":
    "The WireGuard licence is covered by the IT budget; client updates are pushed monthly to managed laptops.",
  "near-intranet-news":
    "The intranet homepage lists news from each department and links to the weekly canteen menu.",
  "near-service-accounts":
    "Shared service accounts are exempt from password rotation but are reviewed by the security team every quarter.",
  "near-hardware-purchases":
    "Hardware purchases above 2,000 euros are approved by finance staff before the order is placed.",
  "near-jury-service": "Paid leave for jury service is granted on presentation of the court summons.",
  "near-training-carry":
    "Unused training budget is not carried over into the next year and lapses in December.",
  "near-doctor-appointment":
    "A doctor's appointment during working hours counts as working time when it cannot be scheduled elsewhere.",
  "near-personal-receipts":
    "Receipts for personal purchases must never be mixed with company expense reports or corporate card statements.",
  "near-company-cars":
    "Company cars are leased for four years and serviced at the dealership; fuel cards cover private kilometres only with approval.",
  "near-evacuation-chairs":
    "Evacuation chairs for wheelchair users are stored at each stairwell and checked every month.",
  "near-pallet-jacks":
    "Pallet jacks in the warehouse need no certificate, but operators must complete a short induction.",
  "near-dock-visitors":
    "Drivers waiting at the loading dock stay behind the yellow line until a team member escorts them.",
  "near-bonus": "Bonuses are paid in March together with the salary of that month.",
  "near-pension-statements":
    "Pension statements are sent every spring and show the contributions made in the previous year.",
  "near-bike-parking": "Bicycle parking is in the basement; showers and lockers are next to the bike racks.",
  "near-pool-vehicles":
    "Pool vehicles are electric and booked through the fleet calendar; return them charged.",
  "near-test-data": "Personal data in test environments must be masked before developers are given access.",
  "near-phone-scams":
    "Callers asking for your password are running a scam; hang up, the service desk never asks for it.",
  "near-release-notes":
    "Release notes are written for every production release and published on the engineering wiki.",
  "near-pagers":
    "Pagers were replaced by the on-call app in 2021; escalation policies live in the incident tool.",
  "near-awareness-newsletter": "The security awareness newsletter is sent to all staff each quarter.",
  "near-event-equipment": "Equipment borrowed for events is returned to the facilities desk within a week.",
  "near-laptop-repair":
    "Broken laptop screens are repaired under warranty; a loan laptop is issued in the meantime.",
  "near-print-shop": "Colour brochures for client presentations are ordered from the external print shop.",
  "near-language-courses": "Fees for language courses are refunded once the final exam is passed.",
  "near-supplier-contracts": "Contracts with suppliers are stored in the legal archive for ten years.",
  "near-working-abroad":
    "Working from another country for more than two weeks needs approval from HR for tax reasons.",
  "near-visitor-parking":
    "Visitor parking spaces are reserved at the main entrance and must be booked a day ahead.",
  "near-train-travel":
    "Train travel is preferred for journeys under four hours; first class is not reimbursed.",
  "near-room-screens":
    "Meeting room screens connect by cable or wireless casting; report faults to facilities.",
  "near-event-catering": "Vegan and vegetarian catering for events is ordered through the events team.",
  "near-client-breakfast":
    "Breakfast meetings with clients are booked as entertainment, not as travel costs.",
  "near-attachments":
    "Emails with attachments from unknown senders are scanned before they reach your inbox.",
};

export interface LabelledQuery {
  query: string;
  relevant: string[];
}

export const QUERIES: LabelledQuery[] = [
  { query: "WireGuard tunnel keeps disconnecting", relevant: ["vpn-trouble"] },
  { query: "how do I connect to the intranet from home", relevant: ["vpn-setup"] },
  { query: "minimum password length", relevant: ["password-policy"] },
  { query: "hardware security keys for admins", relevant: ["mfa"] },
  { query: "how many paid holidays per year", relevant: ["holiday-allowance"] },
  { query: "carrying over unused holiday days", relevant: ["holiday-carry"] },
  { query: "doctor note absence", relevant: ["sick-leave"] },
  { query: "expense claim receipts deadline", relevant: ["expense-claims"] },
  { query: "kilometre reimbursement private car", relevant: ["mileage"] },
  { query: "assembly point during fire drills", relevant: ["fire-drill"] },
  { query: "who may drive forklifts", relevant: ["forklift"] },
  { query: "high-visibility vest loading dock", relevant: ["ppe"] },
  { query: "when are salaries paid", relevant: ["payroll-date"] },
  { query: "pension contribution matching", relevant: ["pension"] },
  { query: "leasing a bicycle through salary sacrifice", relevant: ["bike-scheme"] },
  { query: "electric vehicle charging bays", relevant: ["parking"] },
  { query: "personal data access request", relevant: ["gdpr-request"] },
  { query: "report a phishing email", relevant: ["incident-report"] },
  { query: "releasing on a Friday", relevant: ["deploy-window"] },
  { query: "acknowledging pages when on call", relevant: ["on-call"] },
  { query: "new starter security course", relevant: ["onboarding"] },
  { query: "returning equipment when leaving", relevant: ["offboarding"] },
  { query: "laptop replacement cycle", relevant: ["laptop-refresh"] },
  { query: "holiday", relevant: ["holiday-allowance", "holiday-carry"] },
  // Misspelt or partial words: no stem matches, character trigrams still do.
  { query: "phishng emails", relevant: ["incident-report"] },
  { query: "forklft operator certificate", relevant: ["forklift"] },
  { query: "authenticater app", relevant: ["mfa"] },
  { query: "hi-vis boots", relevant: ["ppe"] },
  { query: "anonymization of records", relevant: ["data-retention"] },
  { query: "vegan lunch", relevant: ["canteen"] },
  { query: "unclaimed room bookings", relevant: ["meeting-rooms"] },
  { query: "per diem breakfast", relevant: ["per-diem"] },
  // Natural questions full of function words, where one or two rare terms decide.
  {
    query: "what do I do if my salary has not been paid by the end of the month",
    relevant: ["payroll-date"],
  },
  { query: "which of the teams are allowed to print in colour", relevant: ["printer"] },
  { query: "what is the annual budget for courses and conferences", relevant: ["training-budget"] },
  { query: "how long are the records of a customer kept after the contract", relevant: ["data-retention"] },
  { query: "is there a limit on the number of days a week I can work remotely", relevant: ["remote-work"] },
  { query: "how many weeks of parental leave are paid in full", relevant: ["parental-leave"] },
  { query: "where do I get a badge as a visitor", relevant: ["visitor"] },
  { query: "can I book a flight in business class", relevant: ["travel-booking"] },
  // Exact rare terms in everyday phrasing: one number, code or name few texts hold, wrapped in words every
  // text shares. Inverse document frequency (the keyword leg) weighs the rare term; the hash embedding
  // weighs every word alike, so the common words pull towards any distractor full of them.
  { query: "what is the MTU for the client", relevant: ["vpn-trouble"] },
  { query: "is it 0.30 for each kilometre", relevant: ["mileage"] },
  { query: "what is the lottery for", relevant: ["parking"] },
  { query: "who has to go to the hotline", relevant: ["incident-report"] },
  { query: "what is done at midnight", relevant: ["offboarding"] },
  { query: "is it the twenty-fifth", relevant: ["payroll-date"] },
  { query: "what to do with the asset form", relevant: ["laptop-refresh"] },
  { query: "is the stairwell the way out in a fire", relevant: ["fire-drill"] },
];

/**
 * Distractors: deterministic word salads drawn from the passages' own running
 * text (a unigram model of the handbook), so every query term also appears in
 * many irrelevant passages and recall@8 is not trivially 1 on a corpus this
 * small. Drawing from the token stream rather than the distinct vocabulary keeps
 * natural frequencies: function words are common and rare terms stay rare, as in
 * real text — otherwise inverse document frequency would carry no signal and
 * "the" would be as telling as "WireGuard".
 */
export function distractors(count: number, seed = 7): Record<string, string> {
  const tokens =
    Object.values(PASSAGES)
      .join(" ")
      .toLowerCase()
      .match(/[a-z0-9][a-z0-9-]*/g) ?? [];
  let state = seed >>> 0;
  const next = () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 4294967296;
  };
  const out: Record<string, string> = {};
  for (let i = 0; i < count; i++) {
    const length = 12 + Math.floor(next() * 10);
    const words = Array.from({ length }, () => tokens[Math.floor(next() * tokens.length)]);
    out[`noise-${i}`] = `${words.join(" ")}.`;
  }
  return out;
}
