-- A library catalogue.
CREATE TABLE authors (
    id SERIAL PRIMARY KEY,
    name TEXT NOT NULL,
    born DATE
);

CREATE TABLE books (
    id SERIAL PRIMARY KEY,
    title TEXT NOT NULL,
    author_id INTEGER NOT NULL REFERENCES authors (id),
    published DATE,
    copies INTEGER NOT NULL DEFAULT 1
);

CREATE INDEX books_author ON books (author_id);

-- Books with their author's name.
CREATE VIEW catalogue AS
SELECT b.title, a.name AS author, b.published
FROM books AS b
JOIN authors AS a ON a.id = b.author_id;

INSERT INTO authors (name, born) VALUES ('Ursula K. Le Guin', '1929-10-21');
INSERT INTO authors (name, born) VALUES ('Italo Calvino', '1923-10-15');

SELECT author, count(*) AS books
FROM catalogue
GROUP BY author
ORDER BY books DESC;
