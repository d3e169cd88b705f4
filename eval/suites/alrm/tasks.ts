// ALRM's benchmark (paper 002 §IV): three tabletop environments × three canonical
// tasks × six instructions (canonical, lexical, syntactical, semantic and two
// high-level-reasoning paraphrases), written by us on the paper's pattern:
// multi-object pick-and-place, an order that matters, reference positions, and
// objects named by their properties (weight, size, sourness, use). Where the
// paper prints an instruction (Table I: all five of fruits task 1; §IV.B: the
// utensils' canonical task) it is the paper's, word for word; the rest are
// ours; which objects a paraphrase means is not typed here but selected from
// the scene's data (the sourest fruit is whichever has the highest sourness), and
// the generator checks that every paraphrase of a task selects the same objects.

/** Which object a phrase means, selected from the scene's objects. */
export type Selector =
  /** The one object of a catalogue type ("the lemon"). */
  | { type: string }
  /** Highest or lowest of a numeric attribute among a category (rank 0 = the extreme, 1 = the next). */
  | { extreme: 'max' | 'min'; attr: string; category?: string; liftable?: boolean; rank?: number }
  /** The object whose attribute equals (or, for text, contains) a value, among a category. */
  | { attr: string; equals?: string | number; includes?: string; category?: string };

export interface Subtask {
  object: Selector;
  /** Into a container, or at a reference position ("front", or "left of" another task object). */
  dest: { into: Selector } | { at: string } | { leftOf: Selector };
}

export interface Paraphrase {
  category: 'CAN' | 'LEX' | 'SYN' | 'SEM' | 'HLR';
  text: string;
  /** The objects this wording refers to, in the task's subtask order (default: the canonical selectors). */
  objects?: Selector[];
}

export interface AlrmTask {
  scene: 'tabletop/fruits' | 'tabletop/utensils' | 'tabletop/boxes';
  /** "1", "2", "3" as in the paper's tables. */
  task: string;
  subtasks: Subtask[];
  /** The subtasks must be done in the listed order. */
  ordered: boolean;
  paraphrases: Paraphrase[];
}

const t = (type: string): Selector => ({ type });

export const ALRM_TASKS: AlrmTask[] = [
  // ---------------------------------------------------------------- fruits
  {
    scene: 'tabletop/fruits',
    task: '1',
    ordered: false,
    subtasks: [
      { object: t('lemon'), dest: { into: t('trash_bin') } },
      { object: t('peach'), dest: { into: t('trash_bin') } },
    ],
    paraphrases: [
      { category: 'CAN', text: 'Pick up the lemon and peach and place them in the trash.' },
      { category: 'LEX', text: 'Grab the lemon and peach and throw them in the garbage.' },
      { category: 'SYN', text: 'Can you pick up the lemon and peach and place them in the trash?' },
      { category: 'SEM', text: 'Hey! these fruits are rot! toss the lemon and peach in the bin' },
      {
        category: 'HLR',
        text: 'Pick up the sourest and the biggest fruits and place them in the bin',
        objects: [
          { extreme: 'max', attr: 'sourness', category: 'fruit' },
          { extreme: 'max', attr: 'size_cm', category: 'fruit' },
        ],
      },
      {
        category: 'HLR',
        text: 'Throw away the yellow fruit and the fruit with the most calories.',
        objects: [
          { attr: 'colour', equals: 'yellow', category: 'fruit' },
          { extreme: 'max', attr: 'calories_kcal', category: 'fruit' },
        ],
      },
    ],
  },
  {
    scene: 'tabletop/fruits',
    task: '2',
    ordered: true,
    subtasks: [
      { object: t('strawberry'), dest: { into: t('bowl') } },
      { object: t('plum'), dest: { into: t('bowl') } },
    ],
    paraphrases: [
      { category: 'CAN', text: 'Put the strawberry in the bowl first, then the plum.' },
      { category: 'LEX', text: 'Drop the strawberry into the dish first, and after that the plum.' },
      { category: 'SYN', text: 'The strawberry goes into the bowl first; the plum follows it.' },
      { category: 'SEM', text: 'ok so first the strawbery into the bowl and then the plum, thanks a lot!!' },
      {
        category: 'HLR',
        text: 'Put the lightest fruit in the bowl first, then the purple one.',
        objects: [
          { extreme: 'min', attr: 'weight_g', category: 'fruit' },
          { attr: 'colour', equals: 'purple', category: 'fruit' },
        ],
      },
      {
        category: 'HLR',
        text: 'First put the fruit with the fewest calories in the bowl, then the second smallest fruit.',
        objects: [
          { extreme: 'min', attr: 'calories_kcal', category: 'fruit' },
          { extreme: 'min', attr: 'size_cm', category: 'fruit', rank: 1 },
        ],
      },
    ],
  },
  {
    scene: 'tabletop/fruits',
    task: '3',
    ordered: false,
    subtasks: [
      { object: t('strawberry'), dest: { at: 'front' } },
      { object: t('peach'), dest: { at: 'center-left' } },
    ],
    paraphrases: [
      { category: 'CAN', text: 'Place the strawberry at the front and the peach at the center-left.' },
      { category: 'LEX', text: 'Set the strawberry down in front and put the peach left of the middle.' },
      { category: 'SYN', text: 'The strawberry should end up at the front, and the peach at the center-left.' },
      { category: 'SEM', text: 'could u put the strawberry up front and the peach center-left? I like them there :)' },
      {
        category: 'HLR',
        text: 'Move the smallest fruit to the front and the sweetest fruit to the center-left.',
        objects: [
          { extreme: 'min', attr: 'size_cm', category: 'fruit' },
          { extreme: 'max', attr: 'sweetness', category: 'fruit' },
        ],
      },
      {
        category: 'HLR',
        text: 'Put the red fruit in front of me and the heaviest fruit left of the middle.',
        objects: [
          { attr: 'colour', equals: 'red', category: 'fruit' },
          { extreme: 'max', attr: 'weight_g', category: 'fruit' },
        ],
      },
    ],
  },
  // ---------------------------------------------------------------- kitchen utensils
  {
    scene: 'tabletop/utensils',
    task: '1',
    ordered: false,
    subtasks: [
      { object: t('spoon'), dest: { into: t('basket') } },
      { object: t('coke_can'), dest: { into: t('basket') } },
      { object: t('spatula'), dest: { into: t('basket') } },
    ],
    paraphrases: [
      { category: 'CAN', text: 'Move the spoon, the coke, and the spatula to the basket.' },
      { category: 'LEX', text: 'Transfer the spoon, the soda can and the turner into the hamper.' },
      { category: 'SYN', text: 'The spoon, the coke and the spatula all need to go into the basket.' },
      { category: 'SEM', text: 'tidy up for me? spoon, coke n spatula -> basket. ta!' },
      {
        category: 'HLR',
        text: 'Put the thing for stirring soup, the drink and the tool for turning food in a pan into the basket.',
        objects: [
          { attr: 'use', includes: 'soup' },
          { attr: 'use', equals: 'drinking' },
          { attr: 'use', includes: 'pan' },
        ],
      },
      {
        category: 'HLR',
        text: 'Pack the lightest utensil, the aluminium thing and the longest utensil into the basket.',
        objects: [
          { extreme: 'min', attr: 'weight_g', category: 'utensil' },
          { attr: 'material', equals: 'aluminium' },
          { extreme: 'max', attr: 'length_cm', category: 'utensil' },
        ],
      },
    ],
  },
  {
    scene: 'tabletop/utensils',
    task: '2',
    ordered: true,
    subtasks: [
      { object: t('spatula'), dest: { into: t('basket') } },
      { object: t('spoon'), dest: { into: t('basket') } },
    ],
    paraphrases: [
      { category: 'CAN', text: 'Put the spatula in the basket first, then the spoon.' },
      { category: 'LEX', text: 'Place the turner into the hamper first, and the spoon after it.' },
      { category: 'SYN', text: 'After the spatula is in the basket, put the spoon in too.' },
      { category: 'SEM', text: 'spatula in the basket, THEN the spoon - order matters to me, ok?' },
      {
        category: 'HLR',
        text: 'First put the utensil for flipping food in a pan into the basket, then the one for eating soup.',
        objects: [
          { attr: 'use', includes: 'pan' },
          { attr: 'use', includes: 'soup' },
        ],
      },
      {
        category: 'HLR',
        text: 'Put the heaviest utensil into the basket first, then the lightest one.',
        objects: [
          { extreme: 'max', attr: 'weight_g', category: 'utensil' },
          { extreme: 'min', attr: 'weight_g', category: 'utensil' },
        ],
      },
    ],
  },
  {
    scene: 'tabletop/utensils',
    task: '3',
    ordered: true,
    subtasks: [
      { object: t('coke_can'), dest: { at: 'front' } },
      { object: t('spoon'), dest: { leftOf: t('coke_can') } },
    ],
    paraphrases: [
      { category: 'CAN', text: 'Place the coke at the front, then put the spoon to the left of the coke.' },
      { category: 'LEX', text: 'Set the soda can in front, then lay the spoon on the left of the soda can.' },
      { category: 'SYN', text: 'Once the coke is at the front, the spoon goes to its left.' },
      { category: 'SEM', text: 'pls coke to the front & then spoon left of it, cheers' },
      {
        category: 'HLR',
        text: 'Bring the drink to the front, then put the utensil for eating soup to the left of the drink.',
        objects: [
          { attr: 'use', equals: 'drinking' },
          { attr: 'use', includes: 'soup' },
        ],
      },
      {
        category: 'HLR',
        text: 'Move the drink to the front, then the lightest utensil to its left.',
        objects: [
          { extreme: 'max', attr: 'weight_g', category: 'drink' },
          { extreme: 'min', attr: 'weight_g', category: 'utensil' },
        ],
      },
    ],
  },
  // ---------------------------------------------------------------- boxes
  {
    scene: 'tabletop/boxes',
    task: '1',
    ordered: true,
    subtasks: [
      { object: t('metal_box'), dest: { into: t('storage_container') } },
      { object: t('wooden_box'), dest: { into: t('storage_container') } },
    ],
    paraphrases: [
      { category: 'CAN', text: 'Move first the metal box and then the wooden box into the container.' },
      { category: 'LEX', text: 'Shift the steel box first and afterwards the timber box into the bin.' },
      { category: 'SYN', text: 'The metal box should go into the container before the wooden box does.' },
      { category: 'SEM', text: 'metal box in the container first pls, wooden one after. thx!' },
      {
        category: 'HLR',
        text: 'First put the heaviest box the arm can lift into the container, then the box made of wood.',
        objects: [
          { extreme: 'max', attr: 'weight_g', category: 'box', liftable: true },
          { attr: 'material', equals: 'wood', category: 'box' },
        ],
      },
      {
        category: 'HLR',
        text: 'Start with the smallest box, then put the one made of timber into the container too.',
        objects: [
          { extreme: 'min', attr: 'size_cm', category: 'box' },
          { attr: 'material', equals: 'wood', category: 'box' },
        ],
      },
    ],
  },
  {
    scene: 'tabletop/boxes',
    task: '2',
    ordered: false,
    subtasks: [
      { object: t('wooden_box'), dest: { at: 'right' } },
      { object: t('cardboard_box'), dest: { at: 'center' } },
    ],
    paraphrases: [
      { category: 'CAN', text: 'Move the wooden box to the right and the cardboard box to the center.' },
      { category: 'LEX', text: 'Shift the timber box to the right side and the carton to the middle.' },
      { category: 'SYN', text: 'The wooden box belongs on the right, and the cardboard box in the center.' },
      { category: 'SEM', text: 'wooden box -> right side, cardbord box -> middle. sorry for the mess!' },
      {
        category: 'HLR',
        text: 'Put the box made of wood on the right and the biggest box in the center.',
        objects: [
          { attr: 'material', equals: 'wood', category: 'box' },
          { extreme: 'max', attr: 'size_cm', category: 'box' },
        ],
      },
      {
        category: 'HLR',
        text: 'Move the 150-gram box to the right and the lightest box to the center.',
        objects: [
          { attr: 'weight_g', equals: 150, category: 'box' },
          { extreme: 'min', attr: 'weight_g', category: 'box' },
        ],
      },
    ],
  },
  {
    scene: 'tabletop/boxes',
    task: '3',
    ordered: false,
    subtasks: [
      { object: t('metal_box'), dest: { into: t('storage_container') } },
      { object: t('cardboard_box'), dest: { into: t('storage_container') } },
    ],
    paraphrases: [
      { category: 'CAN', text: 'Put the metal box and the cardboard box into the container.' },
      { category: 'LEX', text: 'Place the steel box and the carton in the bin.' },
      { category: 'SYN', text: 'Into the container go the metal box and the cardboard box.' },
      { category: 'SEM', text: 'hiya, could the metal box + the cardboard one go in the container? ty' },
      {
        category: 'HLR',
        text: 'Put the heaviest and the lightest of the boxes you can lift into the container.',
        objects: [
          { extreme: 'max', attr: 'weight_g', category: 'box', liftable: true },
          { extreme: 'min', attr: 'weight_g', category: 'box', liftable: true },
        ],
      },
      {
        category: 'HLR',
        text: 'Put the box made of metal and the biggest box into the container.',
        objects: [
          { attr: 'material', equals: 'metal', category: 'box' },
          { extreme: 'max', attr: 'size_cm', category: 'box' },
        ],
      },
    ],
  },
];
