"""Word lists the PERSON rules use: honorifics, particles, given names that are everyday
words, words that turn a "name" into a concept, capitalised words that are never names, and
famous people a learner studies (kept, so a model can talk about Newton)."""

from __future__ import annotations


def _words(text: str) -> frozenset[str]:
    return frozenset(text.split())


HONORIFICS = _words(
    "Mr Mrs Ms Miss Mx Dr Prof Professor Sir Dame Madam Madame Mme Mlle Herr Frau Señor "
    "Señora Sr Sra Srta Rev Reverend Fr Capt Captain Coach Officer Judge Senator Rabbi Imam "
    "Pastor Doctor Mister Monsieur Signor Signora Dott Ing"
)
PARTICLES = _words("van von der den de del della di da du la le ter ten bin ibn al")
# Given names that are also common words: they start a name only before a known surname.
AMBIGUOUS_FIRST = _words(
    "Will May June April August Mark Bill Grant Hope Joy Faith Chance Rich Sunny Summer Autumn "
    "Winter Spring Frank Guy Pat Rose Ray Miles Dean Don Art Rob Sue Bob Drew Gene Earl "
    "Herb Lane Reed Wade Royal King Major Justice Christian Brook Rock Sky Star Ivy Olive Pearl "
    "Iris Lily Violet Holly Daisy Jasmine Heather Dawn Eve Precious Unique Genesis Trinity Nova "
    "Angel Honor Harmony Melody Liberty Patience Prince Stone Carol Cliff Crystal Amber Ruby "
    "Jade Destiny Golden Page Paris Sydney London Florence Victoria Georgia Virginia Carolina "
    "Dallas Austin Phoenix Jordan Chase Hunter Mason Cash Sterling Forest River Rain Storm Sage "
    "Hazel Max Ernest Constance Prudence Charity Sol Luz Ada Julia Gloria Paz Amor Bella Stella "
    "Luna Aurora Marina Celeste Clement Victor Felix Rex Regina Basil Sandy Penny Candy Misty "
    "Rusty Woody Buddy Sonny Kit Tad Al Ed Em Bud Cole Dale Rod Norm Lee "
    "Long Young Gray Grey Brown Green White Black Baker Cook Hill Wood Hall Paige Emerald "
    "Ginger Lavender Mercedes Porsche Kay Dee Carmen Domingo Santos Cruz Rosario Pilar Mar "
    "Franco Marino Dante Leo Salvador Remedios Rocío Nieves"
)
# "Gauss Jordan Elimination", "Jordan Curve Theorem": a named concept, not a person.
CONCEPT_WORDS = _words(
    "Theorem Theory Law Laws Lemma Conjecture Method Methods Equation Equations Principle Effect "
    "Paradox Algorithm Formula Constant Number Numbers Distribution Test Transform Transforms "
    "Series Function Functions Problem Hypothesis Model Inequality Identity Rule Criterion "
    "Integral Space Spaces Field Fields Group Groups Ring Matrix Matrices Cycle Curve Polynomial "
    "Polynomials Prize Award Medal University College School Institute Hall Building Center "
    "Centre Street Avenue Road Park Bridge Station Airport Hospital Museum Library Foundation "
    "Company Corporation Inc Ltd Scale Index Coefficient Machine Diagram Ratio Bound Condition "
    "Conditions Process Experiment Syndrome Disease Reaction Cycle Graph Tree Sort Search Code "
    "Fallacy Doctrine Era Treaty Plan Act Amendment Memorial Boulevard Lecture Lectures Notes "
    "Chapter Exam Quiz Course Class Programming Language Variable Variables Operator Operators "
    "Estimator Estimate Correction Interpolation Approximation Expansion Sequence Triangle "
    "Conjugate Polygon Sphere Set Sets Topology Manifold Statistic Statistics Score Index "
    "Principle Prize Lectureship Professorship Award Cup Trophy Street Way"
)
# Capitalised words that are never a name here (sentence openers, titles, months, tools).
NOT_NAMES = _words(
    "The A An In On At Is Are Was Were Be Been What How Why When Where Who Whom Whose Which "
    "Can Could Would Should Shall Must Might Do Does Did Done Have Has Had This That These Those "
    "It Its He She We They You My Your Our Their His Her Him Them Us Me If But And Or So Then "
    "Also Please Thanks Thank Hi Hello Hey Dear Yes No Not Let Lets Explain Tell Show Give Write "
    "Help Quiz Test Check Find Make Read Use Using Say Said Ask Answer Answers Question Questions "
    "Today Tomorrow Yesterday Monday Tuesday Wednesday Thursday Friday Saturday Sunday January "
    "February March July September October November December Mon Tue Wed Thu Fri Sat Sun "
    "Feb Mar Apr Jun Jul Aug Sep Sept Oct Nov Dec English French German Spanish Italian Chinese "
    "Japanese Latin Greek Roman Python Java JavaScript TypeScript Linux Windows Google Chapter "
    "Section Lecture Exam Unit Lesson Module Part Page Figure Table Step Note Notes Example "
    "Problem Exercise Homework Assignment Essay Paper Summary Introduction Conclusion Abstract "
    "Appendix Definition Proof Solution Topic Subject Street Avenue Road Apt Suite Box North "
    "South East West Central New Old Great Big Little Saint St Mount Lake River Fort Port Cape "
    "University College School Institute Department Professor Doctor Sir Mister Miss Mrs Mr Ms "
    "Dr Prof Here There Now Just Only Even Still Maybe Perhaps Because Since Until While After "
    "Before During About Above Below Between Into From With Without Within For To Of By As Via "
    "Per Every Each All Any Some Many Most More Less Few Both Either Neither Other Another Such "
    "First Second Third Last Next Final Good Best Better Bad Worse Worst Sure Okay OK Great "
    "Hmm Oh Ok Wow Sorry Hope Regards Sincerely Cheers Love Best Yours Kind Warm "
    # Titles of rulers and saints, and the adjectives of peoples and eras: history, not PII.
    "King Queen Duke Duchess Emperor Empress Pope Saint Count Countess Baron Tsar Czar Sultan "
    "Pharaoh Caliph Khan Norman Middle Modern Early Late Ancient Medieval Catholic Protestant "
    "Orthodox Byzantine Viking Saxon Anglo Celtic Gothic Renaissance Baroque Victorian "
    "Elizabethan Soviet American British European African Asian Arab Persian Ottoman Islamic "
    "Jewish Muslim Hindu Buddhist Roman Holy Empire Church Kingdom Republic Dynasty"
)
# Famous people, kept so learners can study them: a surname here is enough on its own unless it
# is also a common family name (then only the full names in FAMOUS_FULL_NAMES are kept).
FAMOUS = _words(
    "Newton Einstein Curie Turing Lovelace Galileo Copernicus Kepler Euler Gauss Riemann Fourier "
    "Laplace Lagrange Leibniz Descartes Pythagoras Euclid Archimedes Aristotle Plato Socrates "
    "Kant Hegel Nietzsche Marx Freud Piaget Pavlov Mendel Pasteur Faraday Maxwell Bohr "
    "Heisenberg Schrödinger Planck Feynman Hawking Dirac Fermi Tesla Edison Hubble Lavoisier "
    "Mendeleev Avogadro Boyle Hooke Volta Ampère Ampere Kelvin Hertz Doppler Bernoulli Hilbert "
    "Noether Cantor Gödel Godel Boole Babbage Knuth Dijkstra Shannon Keynes Napoleon Shakespeare "
    "Dickens Austen Tolstoy Dostoevsky Hemingway Orwell Kafka Homer Virgil Dante Chaucer Milton "
    "Wordsworth Keats Shelley Byron Beethoven Mozart Bach Chopin Picasso Rembrandt Vermeer "
    "Michelangelo Leonardo Caesar Cleopatra Lincoln Churchill Gandhi Mandela Bismarck Lenin "
    "Stalin Hitler Mussolini Roosevelt Kennedy Washington Jefferson Hamilton Darwin Hopper "
    "Bayes Markov Poisson Cauchy Hamming Huffman Kruskal Prim Bellman Ford Fulkerson Floyd "
    "Warshall Tarjan Kahn Hoare Backus Naur Chomsky Church Kolmogorov Nyquist Bode Kirchhoff "
    "Coulomb Gauss Weber Lorentz Minkowski Poincaré Poincare Hardy Ramanujan Erdős Erdos Nash "
    "Neumann Wittgenstein Russell Frege Hume Locke Hobbes Rousseau Voltaire Machiavelli "
    "Confucius Sartre Camus Beauvoir Arendt Foucault Smith Ricardo Friedman Hayek Weber Durkheim"
)
FAMOUS_FULL_NAMES = frozenset(
    line.strip() for line in """
    Isaac Newton
    Adam Smith
    Henry Ford
    Bertrand Russell
    Alexander Hamilton
    George Washington
    Thomas Jefferson
    John Kennedy
    John F. Kennedy
    Alonzo Church
    Robert Floyd
    John Nash
    Milton Friedman
    Max Weber
    Wilhelm Weber
    Claude Shannon
    James Clerk Maxwell
    James Maxwell
    Robert Boyle
    David Huffman
    Godfrey Hardy
    Lester Ford
    Grace Hopper
    Charles Darwin
    Abraham Lincoln
    Marie Curie
    Alan Turing
    Ada Lovelace
    Albert Einstein
    """.strip().splitlines()
)
