-- Content operators edit: banners, news and business school items. The texts of each live in
-- a per-language table (one row per item and language, up to six); the Chinese row is
-- required and is what every other language falls back to.

CREATE TABLE news_translations (
  news_id bigint NOT NULL REFERENCES news (id) ON DELETE CASCADE,
  lang    text NOT NULL CHECK (lang IN ('zhcn', 'en', 'ko', 'ja', 'th', 'vi')),
  title   text NOT NULL CHECK (title <> ''),
  summary text NOT NULL DEFAULT '',
  content text NOT NULL DEFAULT '',
  PRIMARY KEY (news_id, lang)
);

-- The texts move out of the news row into its Chinese version (a title is now required).
INSERT INTO news_translations (news_id, lang, title, summary, content)
  SELECT id, 'zhcn', coalesce(nullif(title, ''), 'News ' || id), summary, content FROM news;
ALTER TABLE news DROP COLUMN title, DROP COLUMN summary, DROP COLUMN content;
ALTER TABLE news ADD COLUMN updated_at timestamptz NOT NULL DEFAULT now();
UPDATE news SET type = 1 WHERE type NOT IN (1, 2);
ALTER TABLE news ADD CONSTRAINT news_type_check CHECK (type IN (1, 2));
CREATE INDEX news_type_published_idx ON news (type, published_at DESC, id DESC) WHERE published;

CREATE TABLE banners (
  id         bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  image      text NOT NULL,
  link       text NOT NULL DEFAULT '',
  sort       integer NOT NULL DEFAULT 0,
  published  boolean NOT NULL DEFAULT true,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX banners_published_idx ON banners (sort, id) WHERE published;

CREATE TABLE banner_translations (
  banner_id bigint NOT NULL REFERENCES banners (id) ON DELETE CASCADE,
  lang      text NOT NULL CHECK (lang IN ('zhcn', 'en', 'ko', 'ja', 'th', 'vi')),
  title     text NOT NULL CHECK (title <> ''),
  PRIMARY KEY (banner_id, lang)
);

CREATE TABLE school_items (
  id           bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  kind         text NOT NULL CHECK (kind IN ('article', 'video')),
  cover        text NOT NULL DEFAULT '',
  video_url    text,
  published    boolean NOT NULL DEFAULT true,
  published_at timestamptz NOT NULL DEFAULT now(),
  updated_at   timestamptz NOT NULL DEFAULT now(),
  CHECK (kind = 'article' OR video_url IS NOT NULL)
);
CREATE INDEX school_items_published_idx ON school_items (published_at DESC, id DESC) WHERE published;

CREATE TABLE school_translations (
  item_id bigint NOT NULL REFERENCES school_items (id) ON DELETE CASCADE,
  lang    text NOT NULL CHECK (lang IN ('zhcn', 'en', 'ko', 'ja', 'th', 'vi')),
  title   text NOT NULL CHECK (title <> ''),
  summary text NOT NULL DEFAULT '',
  content text NOT NULL DEFAULT '',
  PRIMARY KEY (item_id, lang)
);
