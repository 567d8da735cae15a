/**
 * Word lists for realistic names. Deliberately mixed scripts (Latin with accents, CJK, Cyrillic,
 * Arabic, emoji) so that the portal's rendering, sorting and search are exercised on real Unicode.
 */
export const GROUP_PURPOSES = [
  "CRM sync",
  "Registrant export",
  "Badge printing",
  "Slack alerts",
  "Marketing automation",
  "Finance ledger",
  "Session scanner",
  "Lead retrieval",
  "Travel desk",
  "Hotel block",
  "Survey hand-off",
  "Data warehouse",
  "Zapier bridge",
  "Salesforce",
  "HubSpot",
  "Mailchimp audience",
  "Check-in kiosk",
  "Speaker portal",
  "Sponsor leads",
  "Invoice pipeline",
  "Accessibility requests",
  "Catering counts",
  "Café orders",
  "Équipe logistique",
  "Zürich ops",
  "São Paulo desk",
  "Kraków support",
  "Malmö archive",
  "Ωmega analytics",
  "会議 sync",
  "東京オフィス",
  "北京 team",
  "서울 이벤트",
  "Москва партнёры",
  "فريق الدعم",
  "Nordic Ærø hub",
  "🎉 Celebrations",
  "🚀 Launch alerts",
  "📊 Reporting",
  "🎟️ Ticketing",
  "🔔 Notifications",
  "Déjà-vu dedupe",
];

export const GROUP_QUALIFIERS = [
  "production",
  "staging",
  "EU",
  "US",
  "APAC",
  "backup",
  "v2",
  "legacy",
  "nightly",
  "realtime",
  "pilot",
  "Q1",
  "Q3",
  "beta",
  "primary",
  "secondary",
  "internal",
  "partner",
  "Straße",
  "naïve retry",
  "–",
  "(test)",
];

export const EVENT_THEMES = [
  "Summit",
  "Conference",
  "Forum",
  "Expo",
  "Meetup",
  "Workshop",
  "Gala",
  "Hackathon",
  "Symposium",
  "Roadshow",
  "Kick-off",
  "Retreat",
  "Masterclass",
  "Festival",
  "Town hall",
  "Webinar series",
];

export const EVENT_PLACES = [
  "Lisboa",
  "Zürich",
  "São Paulo",
  "Kraków",
  "Malmö",
  "Reykjavík",
  "Montréal",
  "Zaragoza",
  "Genève",
  "東京",
  "大阪",
  "北京",
  "上海",
  "서울",
  "Москва",
  "Αθήνα",
  "القاهرة",
  "Mumbai",
  "Nairobi",
  "Sydney",
  "Auckland",
  "Berlin",
  "Paris",
  "New York",
  "Chicago",
  "Toronto",
  "Mexico City",
  "Buenos Aires",
  "Cape Town",
];

/** Events held in these places are in the United States: their time zone is the place's (US names, §4.2). */
export const US_PLACE_ZONES: Readonly<Record<string, string>> = { "New York": "US/Eastern", Chicago: "US/Central" };

/** Organizers' domains for the events' own sites (`domain`). */
export const EVENT_DOMAINS = ["events.example.com", "summit.example.org", "conf.example.net"];

export const EVENT_TOPICS = [
  "Cloud",
  "Data",
  "Design",
  "Health",
  "Fintech",
  "AI",
  "Security",
  "Product",
  "Marketing",
  "Sustainability",
  "Open source",
  "Mobility",
  "Retail",
  "Éducation",
  "Santé",
  "イノベーション",
  "개발자",
  "🌍 Climate",
  "🎵 Music",
];

/**
 * Time zones chosen to include half- and quarter-hour offsets and both hemispheres. Those of the
 * United States take the names the production service writes (docs/ems-api.md §4.2: `US/Eastern`, ...).
 */
export const TIME_ZONES = [
  "UTC",
  "Europe/London",
  "Europe/Lisbon",
  "Europe/Paris",
  "Europe/Berlin",
  "Europe/Zurich",
  "Europe/Warsaw",
  "Europe/Athens",
  "Europe/Moscow",
  "Europe/Istanbul",
  "Africa/Cairo",
  "Africa/Nairobi",
  "Africa/Johannesburg",
  "Asia/Dubai",
  "Asia/Tehran",
  "Asia/Kolkata",
  "Asia/Kathmandu",
  "Asia/Dhaka",
  "Asia/Bangkok",
  "Asia/Shanghai",
  "Asia/Tokyo",
  "Asia/Seoul",
  "Australia/Adelaide",
  "Australia/Sydney",
  "Pacific/Auckland",
  "Pacific/Chatham",
  "US/Hawaii",
  "US/Alaska",
  "US/Pacific",
  "US/Mountain",
  "US/Central",
  "US/Eastern",
  "America/Toronto",
  "America/Mexico_City",
  "America/Sao_Paulo",
  "America/Argentina/Buenos_Aires",
  "America/St_Johns",
  "Atlantic/Reykjavik",
];

/** Fields a webhook may carry, per trigger object, for webhooks that choose their own. */
export const TRIGGER_FIELDS: Readonly<Record<string, readonly string[]>> = {
  event: ["id", "name", "status", "start_date", "end_date", "timezone", "capacity"],
  contact: ["id", "first_name", "last_name", "email", "company", "phone", "country"],
  registrant: ["id", "event_id", "contact_id", "status", "reg_type_id", "created_at", "checked_in"],
  speaker: ["id", "event_id", "contact_id", "bio", "photo_url", "sessions"],
  sponsor: ["id", "event_id", "name", "level", "booth", "website"],
  session: ["id", "event_id", "name", "start_time", "end_time", "room", "capacity"],
  session_attendance: ["id", "session_id", "registrant_id", "scanned_at", "source"],
  registrant_line_item: ["id", "registrant_id", "item_id", "quantity", "amount", "currency"],
};

export const WEBHOOK_NOTES = [
  "Owned by the integrations team; ask in #integrations before changing.",
  "Temporary until the CRM migration is done.",
  "Retries handled on our side (idempotency key in the payload).",
  "Legacy endpoint — scheduled for removal.",
  "Do not disable during the registration window!",
  "Réplica para el equipo de Madrid.",
  "参加者データの同期用",
];

export const WEBHOOK_EDITORS = [
  "marie.dupont@example.com",
  "José García",
  "ops@example.org",
  "Kenji Watanabe",
  "integrations@corp.example.net",
  "Ana Lúcia Souza",
  "Grzegorz Brzęczyszczykiewicz",
];

export const HEADER_TEMPLATES: readonly (readonly [string, (suffix: string) => string])[] = [
  ["X-Api-Key", (s) => `k-${s}`],
  ["Authorization", (s) => `Bearer ${s}`],
  ["X-Source", () => "ems"],
  ["X-Tenant", (s) => `tenant-${s.slice(0, 6)}`],
  ["X-Signature-Version", () => "2"],
  ["Accept-Language", () => "fr-CH, de;q=0.8"],
];

export const EMAIL_LOCALS = ["ops", "alerts", "it", "events", "integrations", "marie.dupont", "jose.garcia", "oncall", "noc"];
export const EMAIL_DOMAINS = ["example.com", "example.org", "corp.example.net", "events.example.co.uk"];
export const HOOK_HOSTS = ["hooks.example.com", "api.crm.example.org", "ingest.example.net", "hooks.zapier.example"];

/** Companies whose endpoints edits point webhooks at: `https://hooks.<company>.example/...`. */
export const HOOK_COMPANIES = ["acme", "globex", "initech", "umbrella", "hooli", "wonka", "tyrell", "soylent", "nakatomi", "cyberdyne"];
