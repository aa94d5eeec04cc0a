-- The anti-phishing phrase (issue 52 item 7): set by the user, printed on the first line of every
-- e-mail the platform sends them.
ALTER TABLE "users" ADD COLUMN "anti_phishing_phrase" text;
