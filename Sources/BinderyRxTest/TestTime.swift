/// Virtual time in ticks, as in RxTest.
public typealias TestTime = Int
