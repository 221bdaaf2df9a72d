-- A help-centre database as a product might keep it: HTML bodies, its own visibility
-- field ('everyone' is the only public value), and a status ('published' or 'draft').
CREATE TABLE articles (
    id          TEXT PRIMARY KEY,
    title       TEXT NOT NULL,
    body_html   TEXT NOT NULL,
    visibility  TEXT,              -- 'everyone' | 'staff'; anything else counts as staff
    status      TEXT NOT NULL,     -- 'published' | 'draft'; only published articles are served
    updated_at  TEXT NOT NULL,
    url         TEXT
);

INSERT INTO articles VALUES
('reset-password', 'Resetting your password',
 '<h2>Forgot it?</h2><p>Open <b>Settings</b> and choose <em>Reset password</em>. We email a link that works for one hour.</p><p>No email? Check the spam folder, then ask again.</p>',
 'everyone', 'published', '2026-10-01T09:00:00Z', 'https://help.example.com/a/reset-password'),
('two-factor', 'Two-factor login',
 '<p>Turn on two-factor login under Settings &rsaquo; Security.</p><ul><li>Scan the code with an authenticator app.</li><li>Keep the recovery codes somewhere safe.</li></ul>',
 'everyone', 'published', '2026-09-12T10:00:00Z', 'https://help.example.com/a/two-factor'),
('invoice-numbers', 'Invoice numbers',
 '<p>Invoice numbers follow the pattern you set in Billing settings, for example <code>INV-{YYYY}-{####}</code>.</p><p>Numbers are never reused, even for a deleted invoice.</p>',
 'everyone', 'published', '2026-08-03T08:30:00Z', 'https://help.example.com/a/invoice-numbers'),
('export-data', 'Exporting your data',
 '<p>Download invoices and customers as CSV from Settings &gt; Export. It is &lt;really&gt; that simple: large exports arrive by email.</p>',
 'everyone', 'published', '2026-07-21T12:00:00Z', 'https://help.example.com/a/export-data'),
('payment-methods', 'Payment methods',
 '<p>Customers pay an invoice by card or bank transfer. Add payment details in Billing settings.</p><script>track("pm")</script>',
 'everyone', 'published', '2026-06-30T15:00:00Z', NULL),
('refund-exceptions', 'Refund exceptions (staff)',
 '<p>Before approving a refund outside policy, record it in the <b>refund exception ledger</b> with the ticket number.</p>',
 'staff', 'published', '2026-10-02T11:00:00Z', NULL),
('goodwill-credits', 'Goodwill credits',
 '<p>Use the goodwill credit matrix to choose the credit after an outage; a lead approves it first.</p>',
 'Everyone ', 'published', '2026-09-01T11:00:00Z', NULL),  -- misspelled visibility: internal (X5)
('new-pricing', 'New pricing (not announced yet)',
 '<p>The pricing change announcement lands next month; the password reset flow is unchanged.</p>',
 'everyone', 'draft', '2026-10-05T11:00:00Z', NULL);   -- draft: served to nobody (X5)
